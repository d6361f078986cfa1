import type { Corpus } from "./item-types.js";
import type { OrgTenancy } from "../../platform/tenancy.js";

/** The `source_fields` a list may filter on, mapped to their columns (timestamp as epoch ms). */
export interface SourceFieldFilter {
  type?: string;
  title?: string;
  description?: string;
  url?: string;
  timestamp?: number;
}

/**
 * Which items a read may see: one collection of one database, some corpora, optionally some
 * ids, exact-match filters (AND), an ACL, and never an expired memory.
 */
export interface Visibility extends OrgTenancy {
  databaseId: string;
  collection: string;
  /** Several collections at once (query's deprecated sub_tenant_ids); overrides `collection`. */
  collections?: readonly string[];
  corpora: readonly Corpus[];
  ids: readonly string[] | null;
  /** Only declared, match-enabled keys (the caller drops the others). */
  metadata: Readonly<Record<string, unknown>>;
  additional: Readonly<Record<string, unknown>>;
  sourceFields: SourceFieldFilter;
  /** Expanded principals (see acl.ts), or null for no ACL scoping. */
  principals: readonly string[] | null;
  now: number;
  /** Leave out items written by connectors (POST /query without query_apps). */
  excludeConnectorItems?: boolean;
  /**
   * Words (ASCII-lowercased by list-request.ts) that must each occur in the item's title or in
   * one of its indexed chunks: POST /context/list's `search`. Absent or empty: no such filter.
   */
  search?: readonly string[];
}
