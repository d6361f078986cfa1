import { createHash } from "node:crypto";
import type { AppItemKind } from "../../engines/documents/app-items/index.js";
import type { SyncedObject } from "./provider.js";
import type { ConnectorRow, ResourceRow } from "./store.js";

/** The deterministic item id of a provider object: provider, account scope, kind, native id. */
export const objectItemId = (c: Pick<ConnectorRow, "provider" | "provider_account_scope">, kind: AppItemKind, nativeId: string): string =>
  `${c.provider}:${c.provider_account_scope}:${kind}:${nativeId}`;

export interface ObjectItem {
  sourceId: string;
  resourceId: string;
  kind: AppItemKind;
  nativeId: string;
  /** The item id of the object's parent (a reply's thread root, a comment's issue), or null. */
  parentId: string | null;
  collection: string;
  /** The rich app item as the ingest pipeline reads it. */
  raw: Record<string, unknown>;
  /** Of everything the item is built from: unchanged objects are skipped, never re-embedded. */
  hash: string;
}

const parse = (text: string | null): Record<string, unknown> => (text ? (JSON.parse(text) as Record<string, unknown>) : {});

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Builds the app item of a synced object. `metadata`: the resource's keys, then `provider`
 * (system keys win). `additional_metadata`: the resource's keys, then connector_id,
 * resource_id, provider_account_scope and the provider's native ids (provider keys win).
 * ACL: a resource `acl` set by the user wins over the provider's resource verdict, except
 * that a per-object provider permission wins over both (the vendor's precedence).
 */
export function objectItem(c: ConnectorRow, r: ResourceRow, o: SyncedObject, providerAcl: readonly string[] | null): ObjectItem {
  const sourceId = objectItemId(c, o.kind, o.nativeId);
  const collection = r.collection_override ?? c.collection;
  const fields = { ...((o.item.fields as Record<string, unknown> | undefined) ?? {}) };
  const parentId = o.parent ? objectItemId(c, o.parent.kind, o.parent.nativeId) : null;
  if (parentId !== null) fields.parent_id = parentId;
  const userAcl = r.acl ? (JSON.parse(r.acl) as string[]) : null;
  const acl = o.acl ?? userAcl ?? providerAcl;
  const raw: Record<string, unknown> = {
    ...o.item,
    id: sourceId,
    collection,
    fields,
    metadata: { ...parse(r.metadata), provider: c.provider },
    additional_metadata: {
      ...parse(r.additional_metadata),
      connector_id: c.id,
      resource_id: r.resource_id,
      provider_account_scope: c.provider_account_scope,
      ...o.nativeKeys,
    },
    ...(o.links && o.links.length > 0
      ? { relations: o.links.map((l) => ({ predicate: l.predicate, target: { id: objectItemId(c, l.kind, l.nativeId) } })) }
      : {}),
    ...(acl !== null ? { acl: [...acl] } : {}),
  };
  const hash = createHash("sha256").update(stable(raw)).digest("base64url");
  return { sourceId, resourceId: r.resource_id, kind: o.kind, nativeId: o.nativeId, parentId, collection, raw, hash };
}
