import { Type, type TProperties } from "@sinclair/typebox";
import { formOrJson } from "../../platform/http/route-decoded-body.js";

/** The documented body of POST /context/ingest (and of the v1 upload); ingest-routes.ts decodes it. */
const jsonText = (what: string) => Type.String({ description: `${what}, JSON-encoded` });

const scope: TProperties = {
  database: Type.String({ description: "required (alias: tenant_id)" }),
  tenant_id: Type.Optional(Type.String({ description: "deprecated alias of database" })),
  collection: Type.Optional(Type.String({ description: "default collection when omitted (alias: sub_tenant_id)" })),
  sub_tenant_id: Type.Optional(Type.String({ description: "deprecated alias of collection" })),
};

const common: TProperties = {
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory")], { description: "default knowledge (memory when memories are sent)" })),
  upsert: Type.Optional(Type.Boolean({ description: "default true: an item with the same id is replaced; false fails it with ITEM_ALREADY_EXISTS" })),
  allow_duplicates: Type.Optional(
    Type.Boolean({
      description:
        "default false: a file without an id whose bytes are already stored in the collection is answered with the stored item (status duplicate) instead of being stored again; true stores it again",
    }),
  ),
};

const filesPart = Type.Array(Type.String({ format: "binary" }), {
  description: "knowledge files (PDF, DOCX, Markdown, CSV, TXT); part name files (or documents)",
});

const textFields: TProperties = {
  document_metadata: Type.Optional(jsonText("array pairing by order with files: {id, title, description, note, url, timestamp, relations: {ids}, acl}")),
  app_knowledge: Type.Optional(jsonText("array of app items (see the JSON form for their shapes)")),
  memories: Type.Optional(jsonText("array of memories (type memory)")),
  metadata: Type.Optional(jsonText("object of schema-aligned metadata")),
  additional_metadata: Type.Optional(jsonText("object of free-form metadata")),
  acl: Type.Optional(Type.String({ description: "principals allowed to read the items: a JSON array or a comma-separated list" })),
};

const IngestMultipart = Type.Object({ ...scope, ...common, files: Type.Optional(filesPart), ...textFields });

/** The multipart fields without files (the vendor's benchmark harness sends app_knowledge this way). */
const IngestForm = Type.Object({ ...scope, ...common, ...textFields });

const IngestJson = Type.Object({
  ...scope,
  ...common,
  app_knowledge: Type.Optional(
    Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description:
        "app items (simple: content.text, with id or source_id (minted when absent or blank) and type (default document); or rich: kind, provider, external_id, fields, ...)",
    }),
  ),
  memories: Type.Optional(
    Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: "memories: {id? (alias source_id), text | user_assistant_pairs, infer?, ...}" }),
  ),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  additional_metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  acl: Type.Optional(Type.Array(Type.String())),
});

export const IngestBody = formOrJson(IngestMultipart, IngestForm, IngestJson);

/** Response: the ingest outcome (the `data` of POST /context/ingest, the body of the v1 ingest routes). */
export const IngestOutcomeSchema = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  results: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.Union([Type.Literal("queued"), Type.Literal("failed"), Type.Literal("duplicate")]),
      file_name: Type.Optional(Type.String()),
      infer: Type.Optional(Type.Boolean()),
      error_code: Type.Optional(Type.String()),
      message: Type.Optional(Type.String()),
    }),
  ),
  success_count: Type.Integer(),
  failed_count: Type.Integer(),
  duplicate_count: Type.Integer(),
});
