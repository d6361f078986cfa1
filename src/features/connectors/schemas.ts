import { Type, type TSchema } from "@sinclair/typebox";

const optional = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const name = Type.String({ minLength: 1, maxLength: 128 });
const freeObject = Type.Record(Type.String(), Type.Unknown());

export const ConnectorParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const ResourceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), resource_id: Type.String({ minLength: 1, maxLength: 500 }) });

export const ProvidersQuery = Type.Object({ id: Type.Optional(Type.String({ maxLength: 64 })) });
export const ListQuery = Type.Object({ provider: Type.Optional(Type.String({ maxLength: 64 })) });
export const DiscoverQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 4096 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** POST /connectors. `tenant_id` / `sub_tenant_id` are the deprecated aliases of database / collection. */
export const CreateBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 64 }),
  name: optional(Type.String({ maxLength: 200 })),
  database: optional(name),
  tenant_id: optional(name),
  collection: optional(name),
  sub_tenant_id: optional(name),
  provider_account_scope: optional(Type.String({ maxLength: 256 })),
  credentials: Type.Unknown(),
  auth_type: optional(Type.String({ maxLength: 32 })),
  sync_interval_seconds: optional(Type.Integer()),
  sync_engine: optional(Type.String({ maxLength: 32 })),
  custom_instructions: optional(Type.String()),
});

/** PATCH /connectors/{id}: every other field is ignored. */
export const PatchBody = Type.Object({
  sync_interval_seconds: optional(Type.Integer()),
  credentials: Type.Optional(Type.Unknown()),
  custom_instructions: optional(Type.String()),
});

const ResourceMapping = Type.Object({
  resource_id: Type.String({ minLength: 1, maxLength: 500 }),
  resource_type: optional(Type.String({ maxLength: 64 })),
  name: optional(Type.String({ maxLength: 500 })),
  collection: optional(name),
  sub_tenant_id: optional(name),
  metadata: optional(freeObject),
  additional_metadata: optional(freeObject),
  custom_instructions: optional(Type.String()),
  acl: optional(Type.Array(Type.String({ minLength: 1, maxLength: 320 }), { maxItems: 1000 })),
});

export const ConfigureBody = Type.Object({
  resources: Type.Array(ResourceMapping, { minItems: 1, maxItems: 500 }),
  lookback_days: optional(Type.Integer()),
  backfill_chunk_interval_seconds: optional(Type.Integer()),
});

export const ResourceCreateBody = Type.Object({
  resource_id: Type.String({ minLength: 1, maxLength: 500 }),
  resource_type: optional(Type.String({ maxLength: 64 })),
  display_name: optional(Type.String({ maxLength: 500 })),
  collection_override: optional(name),
  sub_tenant_id_override: optional(name),
  metadata: optional(freeObject),
  additional_metadata: optional(freeObject),
  filters: optional(Type.Object({ lookback_days: optional(Type.Integer()) })),
  provider_metadata: optional(freeObject),
});

// Responses: bare objects (the vendor's wire); errors take the standard envelope.
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableString = Nullable(Type.String());
const lifecycle = Type.Union(["reconnect", "paused", "pending_setup", "syncing", "ingesting", "active"].map((l) => Type.Literal(l)));
const syncStatus = Type.Union([Type.Literal("idle"), Type.Literal("queued"), Type.Literal("running")]);
/** Free-form objects the user or the provider supplies (resource metadata), declared open. */
const Open = Type.Object({}, { additionalProperties: true });

/** views.ts connectorView. */
export const ConnectorView = Type.Object({
  connector_id: Type.String(),
  provider: Type.String(),
  name: Type.String(),
  database: Type.String(),
  collection: Type.String(),
  tenant_id: Type.String(),
  sub_tenant_id: Type.String(),
  provider_account_scope: Type.String(),
  auth_type: Type.String(),
  credential_ref: Type.String(),
  org_id: Type.String(),
  status: Type.Literal("active"),
  lifecycle,
  sync_status: syncStatus,
  sync_engine: Type.String(),
  sync_interval_seconds: Type.Integer(),
  next_sync_at: NullableString,
  last_successful_sync_at: NullableString,
  last_attempted_sync_at: NullableString,
  last_error: Type.String(),
  /** provider-error.ts SyncErrorCode; empty when the last sync succeeded. */
  last_error_code: Type.String(),
  documents_dispatched: Type.Integer(),
  sync_cycles_completed: Type.Integer(),
  active_resource_count: Type.Integer(),
  resources_pending_first_sync: Type.Integer(),
  custom_instructions: Type.String(),
  needs_reauth: Type.Boolean(),
  needs_reauth_at: NullableString,
  needs_reauth_reason: Type.String(),
  paused: Type.Boolean(),
  paused_at: NullableString,
  created_at: NullableString,
  updated_at: NullableString,
});
export const ConnectorList = Type.Object({ connectors: Type.Array(ConnectorView) });

/** views.ts resourceView. */
export const ResourceView = Type.Object({
  connector_id: Type.String(),
  resource_id: Type.String(),
  resource_type: Type.String(),
  display_name: Type.String(),
  status: Type.String(),
  provider_cursor: Type.String(),
  collection_override: NullableString,
  sub_tenant_id_override: NullableString,
  database_override: Type.Null(),
  tenant_id_override: Type.Null(),
  metadata: Nullable(Open),
  additional_metadata: Nullable(Open),
  provider_metadata: Nullable(Open),
  filters: Nullable(Open),
  custom_instructions: Type.Optional(Type.String()),
  acl: Type.Optional(Type.Array(Type.String())),
  backfill_status: Type.Union([Type.Literal("pending"), Type.Literal("complete")]),
});
export const ResourceList = Type.Object({ connector_id: Type.String(), resources: Type.Array(ResourceView) });

export const ConnectorPatched = Type.Object({
  connector_id: Type.String(),
  sync_interval_seconds: Type.Integer(),
  next_sync_at: NullableString,
  min_sync_interval_seconds: Type.Integer(),
  max_sync_interval_seconds: Type.Integer(),
  credentials_updated: Type.Optional(Type.Literal(true)),
  custom_instructions_updated: Type.Optional(Type.Literal(true)),
});
export const ConnectorDeleted = Type.Object({ connector_id: Type.String(), deleted: Type.Literal(true) });
export const ResourceDeleted = Type.Object({ connector_id: Type.String(), deleted: Type.Literal(true), resource_id: Type.String() });
export const DiscoverPage = Type.Object({
  connector_id: Type.String(),
  provider: Type.String(),
  resources: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), resource_type: Type.String(), metadata: Open })),
  next_cursor: NullableString,
  has_more: Type.Boolean(),
});
export const Configured = Type.Object({ connector_id: Type.String(), configured: Type.Integer(), backfill: Type.Boolean() });
export const SyncRequested = Type.Object({ run_id: Type.String(), workflow_id: Type.String() });
export const Paused = Type.Object({ connector_id: Type.String(), paused: Type.Literal(true), paused_at: Type.String() });
export const Resumed = Type.Object({ connector_id: Type.String(), paused: Type.Literal(false) });

/** views.ts statusView. */
export const ConnectorStatus = Type.Object({
  connector_id: Type.String(),
  provider: Type.String(),
  status: Type.Union(["paused", "failed", "checking", "degraded", "healthy"].map((s) => Type.Literal(s))),
  lifecycle,
  sync_status: syncStatus,
  last_successful_sync_at: NullableString,
  last_attempted_sync_at: NullableString,
  next_sync_at: NullableString,
  error: Type.String(),
  /** `REAUTH_REQUIRED`, or the connector's last_error_code. */
  error_code: Type.String(),
  resources: Type.Array(
    Type.Object({
      resource_id: Type.String(),
      display_name: Type.String(),
      status: Type.Union(["unknown", "failed", "empty", "ok"].map((s) => Type.Literal(s))),
      last_row_count: Type.Integer(),
      message: Type.Optional(Type.String()),
      checked_at: NullableString,
      retryable: Type.Optional(Type.Boolean()),
      action: Type.Optional(Type.String()),
      sync_blocked: Type.Optional(Type.Literal(true)),
      sync_blocked_reason: Type.Optional(Type.String()),
    }),
  ),
});

const FieldDescription = { name: Type.String(), data_type: Type.String(), description: Type.String() };
/** provider-views.ts: the catalog (no id) or one provider's detail (?id=). */
export const ProviderCatalog = Type.Object({
  providers: Type.Array(
    Type.Object({
      provider: Type.String(),
      category: Type.String(),
      supported: Type.Boolean(),
      moveit_support: Type.Boolean(),
      is_alpha: Type.Boolean(),
      is_beta: Type.Boolean(),
      rank: Type.Integer(),
    }),
  ),
});
export const ProviderDetail = Type.Object({
  provider: Type.String(),
  connector_type: Type.String(),
  auth_type: Type.String(),
  resource_types: Type.Array(Type.String()),
  indexed_object_types: Type.Array(Type.String()),
  searchable_fields: Type.Array(Type.Object(FieldDescription)),
  filterable_fields: Type.Array(Type.Object({ ...FieldDescription, filter_key: Type.String() })),
  /** The JSON Schema of `credentials`, published as is. */
  credential_schema: Open,
  setup_guide: Type.String(),
  default_sync_interval_seconds: Type.Integer(),
  min_sync_interval_seconds: Type.Integer(),
  max_sync_interval_seconds: Type.Integer(),
});
