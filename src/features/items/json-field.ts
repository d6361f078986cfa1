import { invalidInput, validationError } from "../../platform/errors/app-error.js";
import { parseJsonBounded, tooDeepMessage } from "../../platform/util/json-depth.js";

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads a field that the spec sends as a JSON string (multipart), also accepting the already
 * decoded value in JSON bodies. Unparseable text is 400; valid JSON of the wrong kind is 422.
 * `rejectNativeObject`: an object sent where a JSON string is required (app_knowledge) is 422.
 */
/** A JSON-encoded field (multipart text): depth-checked before parsing, 400 when unreadable. */
function parseJsonField(name: string, text: string): unknown {
  const result = parseJsonBounded(text);
  if (result.ok) return result.value;
  throw invalidInput(result.reason === "too_deep" ? tooDeepMessage(`'${name}'`) : `'${name}' is not valid JSON`);
}

export function decodeJsonArray(name: string, value: unknown, rejectNativeObject = false): unknown[] | null {
  if (value === undefined || value === null || value === "") return null;
  if (Array.isArray(value)) return value as unknown[];
  if (isPlainObject(value)) {
    if (rejectNativeObject) throw validationError(`'${name}' must be a JSON-encoded array string, not an object`);
    throw validationError(`'${name}' must be an array`);
  }
  if (typeof value !== "string") throw invalidInput(`'${name}' must be a JSON-encoded array`);
  const parsed = parseJsonField(name, value);
  if (!Array.isArray(parsed)) throw validationError(`'${name}' must be a JSON array`);
  return parsed as unknown[];
}

export function decodeJsonObject(name: string, value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null || value === "") return null;
  if (isPlainObject(value)) return value;
  if (typeof value !== "string") throw invalidInput(`'${name}' must be a JSON object`);
  const parsed = parseJsonField(name, value);
  if (!isPlainObject(parsed)) throw invalidInput(`'${name}' must be a JSON object`);
  return parsed;
}

export function decodeBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw invalidInput(`'${name}' must be true or false`);
}

export function decodeString(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalidInput(`'${name}' must be a string`);
  return value;
}

/** ACL principals: a JSON array, or a comma-separated list; lowercased, blanks dropped. */
export function decodePrincipals(name: string, value: unknown): string[] | null {
  if (value === undefined || value === null || value === "") return null;
  let list: unknown = value;
  if (typeof value === "string") {
    const trimmed = value.trim();
    list = trimmed.startsWith("[") ? decodeJsonArray(name, trimmed) : trimmed.split(",");
  }
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string")) throw invalidInput(`'${name}' must be a list of principals`);
  const principals = (list as string[]).map((p) => p.trim().toLowerCase()).filter((p) => p.length > 0);
  for (const p of principals) if (/\s/.test(p)) throw invalidInput(`'${name}': principal '${p}' contains whitespace`);
  return principals.length > 0 ? [...new Set(principals)] : null;
}

export function decodeRelationIds(name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value)) throw invalidInput(`'${name}' must be an object {ids: string[]}`);
  const ids = value.ids ?? [];
  if (!Array.isArray(ids) || ids.some((i) => typeof i !== "string")) throw invalidInput(`'${name}.ids' must be an array of strings`);
  return [...new Set((ids as string[]).filter((i) => i.length > 0))];
}
