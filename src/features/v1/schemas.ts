import { Type } from "@sinclair/typebox";
import { routeDecoded } from "../../platform/http/route-decoded-body.js";
import { InfraSchema, StatsProperties } from "../databases/schemas.js";

/** Documented bodies of the v1 routes that decode their own fields (routes.ts); they also read the query string. */
const scope = {
  tenant_id: Type.String({ description: "the database (required, here or in the query string)" }),
  sub_tenant_id: Type.Optional(Type.String({ description: "the collection; default collection when omitted" })),
};

const ids = (what: string) => Type.Union([Type.Array(Type.String()), Type.String({ description: "comma-separated" })], { description: what });

export const AddMemoryBody = routeDecoded(
  Type.Object({
    ...scope,
    memories: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description:
        "memories: {id?, text | user_assistant_pairs, infer?, custom_instructions?, user_name?, expiry_time?, metadata?, additional_metadata?, relations?}",
    }),
    upsert: Type.Optional(Type.Boolean()),
  }),
);

export const VerifyProcessingBody = routeDecoded(
  Type.Object({ ...scope, file_ids: ids("ids of the items to look up (aliases: ids, source_ids)") }, { description: "also accepted as query parameters" }),
);

export const DeleteMemoryBody = routeDecoded(
  Type.Object({ ...scope }, { description: "the memory is named by the memory_id query parameter; the scope may come from the query string or this body" }),
);

export const DeleteKnowledgeBody = routeDecoded(Type.Object({ ...scope, source_ids: ids("ids of the knowledge items to delete (aliases: ids, file_ids)") }));

// Responses of the deprecated /tenants routes (`data` of the envelope); the v1 routes answer with
// the shared ingest, status, delete and query results as bare bodies.
const message = Type.String();
export const TenantAccepted = Type.Object({ status: Type.String(), tenant_id: Type.String(), database: Type.String(), message });
export const TenantStatus = Type.Object({
  tenant_id: Type.String(),
  database: Type.String(),
  org_id: Type.String(),
  status: Type.String(),
  infra: InfraSchema,
  message,
});
export const TenantStats = Type.Object({ ...StatsProperties, message });
export const SubTenantList = Type.Object({ sub_tenant_ids: Type.Array(Type.String()), collections: Type.Array(Type.String()), message });
export const TenantListProperties = {
  tenant_ids: Type.Array(Type.String()),
  failed_tenant_ids: Type.Array(Type.Object({ tenant_id: Type.String(), error: Type.String() })),
  message,
};
export const TenantList = Type.Object(TenantListProperties);
