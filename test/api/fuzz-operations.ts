import fc from "fast-check";
import { arbitraryOf, type Hints, type JsonSchema } from "../helpers/schema-arbitrary.js";
import type { OrgObjects } from "../helpers/populated-org.js";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}

/** One operation of /openapi.json. */
export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly parameters: readonly Parameter[];
  /** Request body schemas by content type. */
  readonly bodies: Readonly<Record<string, JsonSchema>>;
}

export interface OpenApiPaths {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

export function operationsOf(doc: OpenApiPaths): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      parameters: op.parameters ?? [],
      bodies: Object.fromEntries(Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => [type, media.schema ?? {}])),
    })),
  );
}

/** A request as sent: everything already encoded, so a failure prints exactly what went out. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Which generator made it (well-typed, or the mutation's name). */
  readonly kind: string;
}

export const describeRequest = (r: FuzzRequest): string => {
  const qs = r.query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  const body = r.body === undefined ? "" : ` body(${r.body.length} chars): ${JSON.stringify(r.body.slice(0, 300))}`;
  return `[${r.kind}] ${r.method} ${r.path}${qs ? `?${qs.slice(0, 300)}` : ""} ${JSON.stringify(r.headers)}${body}`;
};

/** Hints for field names: the populated organization's real names and ids, so requests reach past the lookups. */
export function hintsFor(o: OrgObjects): Hints {
  const dbs = fc.constantFrom(o.database, "fz_db", o.graphDatabase);
  const collections = fc.constantFrom(o.collection, o.graphCollection, "fz_team");
  const items = fc.constantFrom(o.itemId, o.fileId, o.memoryId, "fz-item");
  const itemList = fc.array(items, { minLength: 1, maxLength: 3 });
  const table: Record<string, fc.Arbitrary<unknown>> = {
    database: dbs,
    tenant_id: dbs,
    collection: collections,
    sub_tenant_id: collections,
    id: items,
    memory_id: items,
    ids: fc.oneof(itemList, items),
    source_ids: itemList,
    file_ids: itemList,
    request_id: fc.constant(o.requestId),
    delivery_id: fc.constant(o.deliveryId),
    resource_id: fc.constant(o.resourceId),
    token: fc.constant(o.fileToken),
    provider: fc.constantFrom("slack", "github", "linear", "notion", "gmail"),
    type: fc.constantFrom("knowledge", "memory", "all"),
    url: fc.constantFrom("https://example.com/hook", "http://127.0.0.1:9/hook"),
    query: fc.constantFrom("office", "tea note", "MATCH (n) RETURN n LIMIT 5", "RETURN 1 AS x"),
    memories: fc.constant(JSON.stringify([{ id: "fz-mem", text: "fuzzed memory" }])),
    app_knowledge: fc.constant(JSON.stringify([{ id: "fz-item", type: "note", content: { text: "fuzzed" } }])),
    document_metadata: fc.constant(JSON.stringify([{ id: "fz-file" }])),
  };
  return (name) => table[name];
}

/** Path parameter values: `{id}` names a connector under /connectors and an item elsewhere. */
function pathValue(template: string, name: string, o: OrgObjects, hints: Hints): fc.Arbitrary<string> {
  if (name === "id" && template.startsWith("/connectors/")) return fc.oneof(fc.constant(o.connectorId), fc.uuid());
  const hint = hints(name);
  const plain = fc.string({ minLength: 1, maxLength: 16 });
  return (hint === undefined ? plain : fc.oneof(hint.map(String), plain)).map(String);
}

/** Percent-encodes a path segment byte by byte (encodeURIComponent throws on a lone surrogate; UTF-8 makes it U+FFFD). */
const encodeSegment = (s: string): string =>
  Array.from(Buffer.from(s, "utf8"), (b) =>
    /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join("");

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeSegment(values[name] ?? "x"));
}

/** Query values as sent: arrays repeat the name, everything else is its text. */
export function queryPairs(values: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(values).flatMap(([k, v]): Array<[string, string]> =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [k, textOf(x)]) : [[k, textOf(v)]],
  );
}

const textOf = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

export interface RequestParts {
  readonly pathValues: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly contentType: string | null;
  readonly body: unknown;
}

/** Well-typed parts of a request to `op`: path, query and body drawn from their schemas. */
export function wellTypedParts(op: Operation, o: OrgObjects, hints: Hints): fc.Arbitrary<RequestParts> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(op.template, p.name, o, hints)])));
  const queryModel = Object.fromEntries(queryParams.map((p) => [p.name, arbitraryOf(p.schema ?? {}, hints, p.name)]));
  const queryArb = fc.record(queryModel, { requiredKeys: queryParams.filter((p) => p.required === true).map((p) => p.name) });
  const types = Object.keys(op.bodies);
  const bodyArb: fc.Arbitrary<{ contentType: string | null; body: unknown }> =
    types.length === 0
      ? fc.constant({ contentType: null, body: undefined })
      : fc.oneof(...types.map((type) => arbitraryOf(op.bodies[type] ?? {}, hints).map((body) => ({ contentType: type, body }))));
  return fc.record({ pathValues: pathArb, query: queryArb, body: bodyArb }).map(({ pathValues, query, body }) => ({
    pathValues,
    query: query,
    contentType: body.contentType,
    body: body.body,
  }));
}

/** Encodes well-typed parts: JSON as JSON, multipart as a real multipart body (array-of-binary fields become file parts), forms urlencoded. */
export function encode(op: Operation, parts: RequestParts, kind: string): FuzzRequest {
  const base = { method: op.method, path: fillPath(op.template, parts.pathValues), query: queryPairs(parts.query), kind };
  if (parts.contentType === null || parts.body === undefined) return { ...base, headers: {} };
  if (parts.contentType === "multipart/form-data") {
    const boundary = "fuzzboundary7c1";
    return { ...base, headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body: multipartOf(parts.body, boundary) };
  }
  if (parts.contentType === "application/x-www-form-urlencoded") {
    return { ...base, headers: { "Content-Type": parts.contentType }, body: formOf(parts.body) };
  }
  return { ...base, headers: { "Content-Type": parts.contentType }, body: JSON.stringify(parts.body) };
}

/** A urlencoded form of the body's fields, each value as text (objects JSON-encoded, as multipart carries them). */
function formOf(body: unknown): string {
  const fields = body !== null && typeof body === "object" && !Array.isArray(body) ? Object.entries(body) : [["value", body] as const];
  return new URLSearchParams(fields.map(([name, value]): [string, string] => [name, textOf(value)])).toString();
}

function multipartOf(body: unknown, boundary: string): string {
  const fields = body !== null && typeof body === "object" && !Array.isArray(body) ? Object.entries(body) : [["value", body] as const];
  const parts: string[] = [];
  for (const [name, value] of fields) {
    if (name === "files" || name === "documents") {
      const files = Array.isArray(value) ? value : [value];
      files.forEach((content, i) =>
        parts.push(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f${i}.txt"\r\nContent-Type: text/plain\r\n\r\n${textOf(content)}\r\n`,
        ),
      );
      continue;
    }
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${textOf(value)}\r\n`);
  }
  return `${parts.join("")}--${boundary}--\r\n`;
}
