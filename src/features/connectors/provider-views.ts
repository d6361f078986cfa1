import type { ConnectorProvider, ProviderId } from "./provider.js";

const CATEGORIES: Record<ProviderId, string> = {
  slack: "communication",
  github: "engineering",
  linear: "engineering",
  notion: "knowledge",
  gmail: "communication",
};

/** One row of GET /connectors/providers; providers of the contract not built yet show supported: false. */
export function providerCatalogEntry(id: ProviderId, provider: ConnectorProvider | undefined, rank: number): Record<string, unknown> {
  return {
    provider: id,
    category: provider?.descriptor.category ?? CATEGORIES[id],
    supported: provider !== undefined,
    moveit_support: false,
    is_alpha: false,
    is_beta: provider === undefined,
    rank: rank + 1,
  };
}

/** GET /connectors/providers?id=: fields, filters, credential_schema and setup guide. */
export function providerDetail(provider: ConnectorProvider): Record<string, unknown> {
  const d = provider.descriptor;
  return {
    provider: d.provider,
    connector_type: d.connectorType,
    auth_type: d.authType,
    resource_types: d.resourceTypes,
    indexed_object_types: d.indexedObjectTypes,
    searchable_fields: d.searchableFields,
    filterable_fields: d.filterableFields,
    credential_schema: d.credentialSchema,
    setup_guide: d.setupGuide,
    default_sync_interval_seconds: d.defaultSyncIntervalSeconds,
    min_sync_interval_seconds: d.minSyncIntervalSeconds,
    max_sync_interval_seconds: d.maxSyncIntervalSeconds,
  };
}
