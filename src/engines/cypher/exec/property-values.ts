import { runtimeTypeError } from "../errors.js";
import { typeName } from "../values/value.js";
import type { PropertyValue, Value } from "../values/value.js";

/**
 * Checks that a value can be stored as a property: scalars, or lists whose elements are all of one
 * scalar type. `null` means "no property" and maps to undefined.
 */
export function toPropertyValue(v: Value): PropertyValue | undefined {
  if (v === null) return undefined;
  switch (typeof v) {
    case "boolean":
    case "bigint":
    case "number":
    case "string":
      return v;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (Array.isArray(v)) {
    const out: PropertyValue[] = [];
    let kind: string | null = null;
    for (const item of v) {
      if (item === null || Array.isArray(item) || typeof item === "object") {
        throw runtimeTypeError("InvalidPropertyType", `property lists may only hold simple values, got ${typeName(item)}`);
      }
      const k = typeof item === "bigint" || typeof item === "number" ? "number" : typeof item;
      if (kind !== null && kind !== k) throw runtimeTypeError("InvalidPropertyType", "property lists must be homogeneous");
      kind = k;
      out.push(item);
    }
    return out;
  }
  throw runtimeTypeError("InvalidPropertyType", `cannot store ${typeName(v)} as a property`);
}
