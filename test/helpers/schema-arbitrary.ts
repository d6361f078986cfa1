import fc from "fast-check";

/** The part of JSON Schema (as /openapi.json writes it, OpenAPI 3.0 flavour) the generators read. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  format?: string;
}

/** Values to prefer for a field of this name (real database names, item ids, ...), or undefined. */
export type Hints = (name: string) => fc.Arbitrary<unknown> | undefined;

const MAX_DEPTH = 5;

/**
 * A fast-check arbitrary of values valid under `schema`. Sizes are kept small (strings up to 24
 * characters, arrays up to 3 items): the point is reaching every branch of the route with
 * well-typed input, not volume. A field named in `hints` draws half the time from the hint, so
 * requests name objects that exist and get past the lookups.
 */
export function arbitraryOf(schema: JsonSchema, hints: Hints, name = "", depth = 0): fc.Arbitrary<unknown> {
  const plain = plainArbitrary(schema, hints, depth);
  const hint = name === "" ? undefined : hints(name);
  const valued = hint === undefined ? plain : fc.oneof(hint, plain);
  return schema.nullable === true ? fc.option(valued, { nil: null, freq: 8 }) : valued;
}

function plainArbitrary(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined && choices.length > 0) return fc.oneof(...choices.map((s) => arbitraryOf(s, hints, "", depth + 1)));
  if (schema.allOf !== undefined && schema.allOf.length > 0) return arbitraryOf(schema.allOf[0] ?? {}, hints, "", depth + 1);
  switch (schema.type) {
    case "string":
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 24, 24)) });
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(arbitraryOf(schema.items ?? {}, hints, "", depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case "object":
      return objectArbitrary(schema, hints, depth);
    default:
      return schema.properties !== undefined ? objectArbitrary(schema, hints, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (schema.additionalProperties === false) return fc.constant({});
    const values =
      typeof schema.additionalProperties === "object" ? arbitraryOf(schema.additionalProperties, hints, "", depth + 1) : fc.jsonValue({ maxDepth: 2 });
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: 3 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of names) model[key] = arbitraryOf(properties[key] ?? {}, hints, key, depth + 1);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in model) });
}
