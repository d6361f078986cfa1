import { Ajv, type ValidateFunction } from "ajv";

// Checks every response a test sees against the OpenAPI document the app serves: the route,
// method and status must be declared, and the body must match the declared schema, closed on
// additional properties unless the document declares an object open.

interface MediaType {
  schema?: unknown;
}
interface Operation {
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

interface Template {
  path: string;
  regex: RegExp;
  params: number;
}

// Routes the document leaves out on purpose: the document itself and the docs page.
const UNDOCUMENTED = [/^\/openapi\.json$/, /^\/docs(\/|$)/];

/** Object schemas without an explicit `additionalProperties` become closed. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] = k === "properties" ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v);
  if ((out.type === "object" || out.properties !== undefined) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function templateOf(path: string): Template {
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return { path, regex: new RegExp(`^${pattern}$`), params: (path.match(/\{/g) ?? []).length };
}

export class ResponseContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly templates: Template[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDoc) {
    this.templates = Object.keys(doc.paths)
      .map(templateOf)
      .sort((a, b) => a.params - b.params);
  }

  /** null when the response honours the document, otherwise what is wrong. */
  problem(method: string, pathname: string, status: number, contentType: string | null, text: string): string | null {
    const m = method.toLowerCase();
    if (m === "head" || m === "options" || UNDOCUMENTED.some((r) => r.test(pathname))) return null;
    const template = this.templates.find((t) => t.regex.test(pathname) && this.doc.paths[t.path]?.[m] !== undefined);
    if (!template) return status === 404 ? null : `${method} ${pathname} is not in the document, yet answered ${status}`;
    const route = `${method.toUpperCase()} ${template.path}`;
    const response = this.doc.paths[template.path]?.[m]?.responses?.[String(status)];
    if (!response) return `${route} answered ${status}, which its contract does not declare`;
    const content = response.content ?? {};
    const isJson = (contentType ?? "").startsWith("application/json");
    if (!isJson) {
      if (text === "" && Object.keys(content).length === 0) return null;
      const declared = Object.keys(content);
      const media = (contentType ?? "").split(";")[0]?.trim() ?? "";
      return declared.includes("*/*") || declared.includes(media)
        ? null
        : `${route} ${status} sent '${contentType}', declared ${declared.join(", ") || "no body"}`;
    }
    const schema = content["application/json"]?.schema;
    if (schema === undefined) return `${route} ${status} sent JSON, which its contract does not declare`;
    const key = `${m} ${template.path} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(closed(schema) as object);
      this.validators.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      return `${route} ${status} sent a body that is not JSON (${String(err)}): ${text.slice(0, 200)}`;
    }
    if (validate(body)) return null;
    return `${route} ${status} does not match its contract: ${this.ajv.errorsText(validate.errors)}\nbody: ${text.slice(0, 2000)}`;
  }
}
