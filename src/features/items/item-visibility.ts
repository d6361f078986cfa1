import type { Corpus } from "./item-types.js";
import { invalidInput } from "../../platform/errors/app-error.js";
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

/**
 * Most filter clauses one request may build (see filterClauseCount), the same on both backends.
 * Each key is one more ANDed condition: SQLite refuses a statement past about 950 of them
 * ("Expression tree is too large", its depth limit of 1000), which answered 500 for 999 keys; 500
 * keeps a wide margin under that and under SQLite's 32,766 bound values.
 */
export const MAX_FILTER_CLAUSES = 500;

/**
 * One clause per metadata, additional_metadata and source_fields key, per id and per (expanded) ACL
 * principal. Collections are not counted: a query names at most 100 (its schema) and always one.
 */
function filterClauseCount(v: Visibility): number {
  const keys = (o: Readonly<Record<string, unknown>>): number => Object.values(o).filter((value) => value !== undefined).length;
  return keys(v.metadata) + keys(v.additional) + keys(v.sourceFields as Record<string, unknown>) + (v.ids?.length ?? 0) + (v.principals?.length ?? 0);
}

/** Refuses a request whose filters build more than MAX_FILTER_CLAUSES clauses: 400 INVALID_INPUT. */
export function checkFilterClauses(v: Visibility): void {
  const n = filterClauseCount(v);
  if (n <= MAX_FILTER_CLAUSES) return;
  throw invalidInput(
    `the request's filters build ${n} clauses (metadata, additional_metadata and source_fields keys, ids, acl principals); at most ${MAX_FILTER_CLAUSES} are allowed`,
  );
}
