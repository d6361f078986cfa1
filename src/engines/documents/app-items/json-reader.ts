// Small readers over untrusted JSON. They throw AppItemInputError, which validateAppItem turns into
// a failure value; the throw only shortens the code path and never leaves the module.

import { parseJsonBounded, tooDeepMessage } from "../../../platform/util/json-depth.js";

export class AppItemInputError extends Error {
  constructor(path: string, problem: string) {
    super(`${path} ${problem}`);
    this.name = "AppItemInputError";
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function optionalString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") throw new AppItemInputError(`${path}.${key}`, "must be a string");
  return value;
}

export function requiredString(obj: JsonObject, key: string, path: string): string {
  const value = optionalString(obj, key, path);
  if (value === undefined || value.trim().length === 0) throw new AppItemInputError(`${path}.${key}`, "is required and must be a non-empty string");
  return value;
}

/** Objects may arrive JSON-encoded in a string (multipart forms); both are accepted. */
export function optionalObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  let value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    const parsed = parseJsonBounded(value);
    if (!parsed.ok) {
      throw new AppItemInputError(
        `${path}.${key}`,
        parsed.reason === "too_deep" ? tooDeepMessage("the JSON string") : "must be an object or a JSON string holding one",
      );
    }
    value = parsed.value;
  }
  if (!isObject(value)) throw new AppItemInputError(`${path}.${key}`, "must be an object");
  return value;
}

export function optionalArray(obj: JsonObject, key: string, path: string): unknown[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new AppItemInputError(`${path}.${key}`, "must be an array");
  return value as unknown[];
}

/** First present string among several alias keys (e.g. `body`, `text`); non-strings are skipped. */
export function firstString(obj: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = obj[key];
    if (typeof value === "string" && value.trim().length > 0) return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}
