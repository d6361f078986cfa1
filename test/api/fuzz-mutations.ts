import fc from "fast-check";
import type { Hints } from "../helpers/schema-arbitrary.js";
import type { OrgObjects } from "../helpers/populated-org.js";
import { encode, fillPath, queryPairs, wellTypedParts, type FuzzRequest, type Operation, type RequestParts } from "./fuzz-operations.js";

const deep = (depth: number, open: string, close: string, leaf = ""): string => open.repeat(depth) + leaf + close.repeat(depth);

/** JSON fragments of every wrong type and shape: extreme numbers, deep nesting, odd unicode, NUL, traversal, prototype keys. */
const HOSTILE_JSON = [
  "null",
  "true",
  "-0",
  "1e308",
  "-1e308",
  "1e-400",
  "9007199254740993",
  "123456789012345678901234567890",
  "0.5",
  "-1",
  "[]",
  "{}",
  '""',
  "[null]",
  "[1e308]",
  '[{"id":null}]',
  deep(100, "[", "]"),
  deep(10_000, "[", "]"),
  deep(100, '{"a":', "}", "1"),
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u202e\\u2066x\\u2069"',
  '"\\ufeff"',
  '"e\\u0301\\ud835\\udd18"',
  JSON.stringify("../../../etc/passwd"),
  JSON.stringify("..%2F..%2Fsecret"),
  JSON.stringify("x".repeat(100_000)),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  JSON.stringify("' OR '1'='1"),
  JSON.stringify("'); DROP TABLE context_items; --"),
];

/** Texts for query strings and path segments. */
const HOSTILE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\u202e\u2066",
  "../../etc/passwd",
  "..\\..\\windows",
  "%00",
  "%2e%2e%2f",
  "1e308",
  "-1",
  "0",
  "NaN",
  "Infinity",
  "9007199254740993",
  "true",
  "null",
  "[]",
  "{}",
  "x".repeat(5_000),
  "' OR '1'='1",
  "a,b,,c",
  "\t\n",
  "𝔘\u0301",
];

const RAW_BODIES = [
  '{"database":',
  "[1,2",
  "null",
  "\u0000\u0001",
  '{"a":1}}',
  "true",
  '"str"',
  "{".repeat(200),
  "",
  "\ufeff{}",
  '{"a":1,"a":2}',
  "[]",
  deep(10_000, "[", "]"),
];

const WRONG_CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "application/json; charset=latin1",
  "multipart/form-data",
  "application/octet-stream",
];

const B = "fuzzb";
const part = (headers: string, value: string): string => `--${B}\r\n${headers}\r\n\r\n${value}\r\n`;
const disposition = (name: string): string => `Content-Disposition: form-data; name="${name}"`;

/** Broken multipart bodies: no or wrong boundary, truncation, nameless parts, files where text belongs, hostile JSON fields. */
function badMultipart(o: OrgObjects): Array<{ contentType: string; body: string }> {
  const typed = `multipart/form-data; boundary=${B}`;
  const db = part(disposition("database"), o.database);
  return [
    { contentType: "multipart/form-data", body: `${db}--${B}--\r\n` },
    { contentType: typed, body: `--${B}\r\n${disposition("database")}\r\n\r\n${o.database}` },
    { contentType: typed, body: `${db}--other--\r\n` },
    { contentType: typed, body: `${part("Content-Disposition: form-data", "x")}--${B}--\r\n` },
    { contentType: typed, body: `${part("X-Nothing: y", "x")}--${B}--\r\n` },
    { contentType: typed, body: `${part(`${disposition("database")}; filename="db.txt"`, o.database)}--${B}--\r\n` },
    { contentType: typed, body: `${db}${part(disposition("database"), "other_db")}--${B}--\r\n` },
    { contentType: typed, body: `${db}${part(disposition("app_knowledge"), deep(10_000, "[", "]"))}--${B}--\r\n` },
    { contentType: typed, body: `${db}${part(disposition("memories"), '[{"text":1e308,"expiry_time":-1}]')}--${B}--\r\n` },
    { contentType: typed, body: `${db}${part(disposition("document_metadata"), "{not json")}--${B}--\r\n` },
    { contentType: typed, body: `${db}${part(`${disposition("files")}; filename="../../etc/passwd"`, "\u0000\u0001binary")}--${B}--\r\n` },
    {
      contentType: typed,
      body: `${db}${part(`${disposition("files")}; filename="a.pdf"\r\nContent-Type: application/pdf`, "%PDF-1.7 truncated")}--${B}--\r\n`,
    },
    { contentType: typed, body: `${part(disposition("da\u0000ta"), "x")}--${B}--\r\n` },
    { contentType: typed, body: "" },
    { contentType: typed, body: `--${B}--\r\n` },
    { contentType: `multipart/form-data; boundary=${"b".repeat(300)}`, body: `--${"b".repeat(300)}--\r\n` },
  ];
}

/** Broken or hostile urlencoded forms: bad escapes, NUL, a field sent twice, more fields than allowed, deep JSON, no body. */
function badForm(o: OrgObjects): string[] {
  const db = `database=${encodeURIComponent(o.database)}`;
  return [
    "",
    "%zz%",
    `${db}&type=%E0%A4%A`,
    `${db}&database=other_db&type=knowledge`,
    `${db}&type=knowledge&app_knowledge=${encodeURIComponent(deep(10_000, "[", "]"))}`,
    `${db}&type=memory&memories=${encodeURIComponent('[{"text":1e308,"expiry_time":-1}]')}`,
    `${db}&type=knowledge&app_knowledge=%00%01`,
    `${db}&${Array.from({ length: 150 }, (_, i) => `f${i}=1`).join("&")}`,
    `${db}&type=knowledge&files=${encodeURIComponent("not a file")}`,
    "=&&=&",
  ];
}

/** Cypher that is refused, runs into a budget, or is merely odd. */
const HOSTILE_CYPHER = [
  "CALL db.labels()",
  "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
  "UNWIND range(1, 100000000) AS x RETURN count(x)",
  "WITH range(1, 20000) AS l UNWIND l AS a UNWIND l AS b RETURN count(*)",
  `RETURN ${deep(5_000, "(", ")", "1")}`,
  `RETURN ${deep(3_000, "[", "]")}`,
  "RETURN 'unterminated",
  "RETURN 1 /* unterminated",
  "MATCH (a)-[*]->(b) RETURN count(*)",
  "RETURN reduce(s = '', x IN range(1, 10000000) | s + 'xxxxxxxxxx') AS s",
  "RETURN [x IN range(1, 1000000000) | x] AS l",
  "RETURN 9223372036854775807 + 1",
  "RETURN toInteger('1e400'), 1 / 0, 1.0 / 0.0",
  "MATCH (n) WHERE n.name =~ '(a+)+$' RETURN n",
  "RETURN $missing",
  "EXPLAIN MATCH (n) RETURN n",
  "USE other MATCH (n) RETURN n",
  "RETURN 1; RETURN 2",
  "CREATE INDEX FOR (n:L) ON (n.p)",
  "MATCH (n) DETACH DELETE n",
  "RETURN '\u0000\ud800'",
  "MERGE (a:A {id: 1})-[:R]->(a) RETURN a",
  "UNWIND range(1, 100000) AS i CREATE (:Bulk {i: i})",
];

export const isCypherRoute = (op: Operation): boolean => op.template === "/byog/query";
export const isMultipartRoute = (op: Operation): boolean => "multipart/form-data" in op.bodies;
const isFormRoute = (op: Operation): boolean => "application/x-www-form-urlencoded" in op.bodies;

/** Content types the mutations know how to break; an operation taking another one fails the coverage test. */
export const MUTABLE_CONTENT_TYPES = new Set(["application/json", "multipart/form-data", "application/x-www-form-urlencoded"]);

const takesBody = (op: Operation): boolean => op.method !== "GET" && op.method !== "HEAD";

/** Inserts (or replaces) `key` with a raw JSON fragment in a JSON object's text. */
function withRawField(body: unknown, key: string, raw: string): string {
  const object = body !== null && typeof body === "object" && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  delete object[key];
  const rest = JSON.stringify(object).slice(1, -1);
  return `{${rest}${rest ? "," : ""}${JSON.stringify(key)}:${raw}}`;
}

const PLACEHOLDER = "@@hostile-value@@";

/** Every place in a JSON value a hostile value can go: each object property and array element, nested. */
function slots(value: unknown, out: Array<(v: unknown) => void> = []): Array<(v: unknown) => void> {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push((v) => (value[i] = v));
      slots(item, out);
    });
  } else if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      out.push((v) => (object[key] = v));
      slots(object[key], out);
    }
  }
  return out;
}

/** The body with its `index`-th nested slot replaced by a raw JSON fragment (numbers keep their exact spelling). */
function withNestedRaw(body: unknown, index: number, raw: string): string | null {
  const copy = JSON.parse(JSON.stringify(body ?? null)) as unknown;
  const places = slots(copy);
  const place = places[index % Math.max(1, places.length)];
  if (place === undefined) return null;
  place(PLACEHOLDER);
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), raw);
}

/** Malformed requests to `op`: each takes a well-typed request and breaks one thing about it. */
export function malformedRequests(op: Operation, o: OrgObjects, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const parts = wellTypedParts(op, o, hints);
  const bodyKeys = Object.keys(op.bodies["application/json"]?.properties ?? {});
  const queryKeys = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
  const pathKeys = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
  const mutations: Array<fc.Arbitrary<FuzzRequest>> = [];

  const queryKey = fc.constantFrom(...queryKeys, "database", "tenant_id", "page", "unknown_param");
  mutations.push(
    fc.tuple(parts, queryKey, fc.constantFrom(...HOSTILE_TEXT), fc.boolean()).map(([p, key, value, repeat]) => {
      const req = encode(op, p, "hostile query value");
      const query = queryPairs({ ...p.query, [key]: repeat ? [value, value] : value });
      return { ...req, query };
    }),
  );
  if (pathKeys.length > 0) {
    mutations.push(
      fc.tuple(parts, fc.constantFrom(...pathKeys), fc.constantFrom(...HOSTILE_TEXT.filter((t) => t !== ""))).map(([p, key, value]) => ({
        ...encode(op, p, "hostile path segment"),
        path: fillPath(op.template, { ...p.pathValues, [key]: value }),
      })),
    );
  }
  if (takesBody(op)) {
    mutations.push(
      fc.tuple(parts, fc.constantFrom(...RAW_BODIES)).map(([p, raw]) => ({
        ...encode(op, { ...p, contentType: null }, "malformed JSON"),
        headers: { "Content-Type": "application/json" },
        body: raw,
      })),
      fc.tuple(parts, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([p, type]) => {
        const req = encode(op, p, "wrong content type");
        return { ...req, headers: { "Content-Type": type }, body: req.body ?? "database=x" };
      }),
      fc.tuple(parts, fc.constantFrom(...bodyKeys, "database", "tenant_id", "unknown_field"), fc.constantFrom(...HOSTILE_JSON)).map(([p, key, raw]) => ({
        ...encode(op, { ...p, contentType: null }, `hostile field ${key}`),
        headers: { "Content-Type": "application/json" },
        body: withRawField(p.body, key, raw),
      })),
      fc.tuple(parts, fc.nat(), fc.constantFrom(...HOSTILE_JSON)).map(([p, index, raw]) => ({
        ...encode(op, { ...p, contentType: null }, "hostile nested value"),
        headers: { "Content-Type": "application/json" },
        body: withNestedRaw(p.body, index, raw) ?? withRawField(p.body, "database", raw),
      })),
      parts.map((p) => ({
        ...encode(op, { ...p, contentType: null }, "huge body"),
        headers: { "Content-Type": "application/json" },
        body: withRawField(p.body, "padding", JSON.stringify("x".repeat(300_000))),
      })),
    );
  }
  if (isMultipartRoute(op)) {
    mutations.push(
      fc.tuple(parts, fc.constantFrom(...badMultipart(o))).map(([p, bad]) => ({
        ...encode(op, { ...p, contentType: null }, "bad multipart"),
        headers: { "Content-Type": bad.contentType },
        body: bad.body,
      })),
    );
  }
  if (isFormRoute(op)) {
    mutations.push(
      fc.tuple(parts, fc.constantFrom(...badForm(o))).map(([p, body]) => ({
        ...encode(op, { ...p, contentType: null }, "bad form"),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      })),
    );
  }
  if (isCypherRoute(op)) {
    mutations.push(
      fc.tuple(fc.constantFrom(...HOSTILE_CYPHER), fc.constantFrom(o.graphCollection, "fz_graph")).map(([query, collection]) => ({
        method: op.method,
        path: op.template,
        query: [],
        kind: "hostile Cypher",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ database: o.graphDatabase, collection, query }),
      })),
    );
  }
  return fc.oneof(...mutations);
}

/** Well-typed requests to `op`, encoded. */
export function wellTypedRequests(op: Operation, o: OrgObjects, hints: Hints): fc.Arbitrary<FuzzRequest> {
  return wellTypedParts(op, o, hints).map((p: RequestParts) => encode(op, p, "well-typed"));
}
