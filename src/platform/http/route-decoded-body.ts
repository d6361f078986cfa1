import { Type, type TSchema, type TUnsafe } from "@sinclair/typebox";

/** Marks a body schema whose fields the route itself decodes (see server.ts's validator compiler). */
export const ROUTE_DECODED = "x-decoded-by-route";

/**
 * A request body that /openapi.json documents but the route decodes field by field: multipart
 * parts (streamed and bounded while read) and JSON forms of the same fields, whose decoders
 * give each field its own code (400 INVALID_INPUT, or 422 VALIDATION_ERROR for an object where
 * a JSON-encoded array is required). Schema validation would answer those differently.
 */
export function routeDecoded(schema: TSchema): TUnsafe<unknown> {
  // Typed unknown for the handler: nothing has checked the body against the schema.
  return Type.Unsafe<unknown>({ ...schema, [ROUTE_DECODED]: true });
}

/**
 * A request body sent as multipart/form-data, as application/x-www-form-urlencoded (the same text
 * fields, no files) or as a JSON object, all documented, all route-decoded.
 */
export function formOrJson(multipart: TSchema, urlencoded: TSchema, json: TSchema): { content: Record<string, { schema: TSchema }> } {
  return {
    content: {
      "multipart/form-data": { schema: routeDecoded(multipart) },
      "application/x-www-form-urlencoded": { schema: routeDecoded(urlencoded) },
      "application/json": { schema: routeDecoded(json) },
    },
  };
}
