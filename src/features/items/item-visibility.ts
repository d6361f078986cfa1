import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Backend } from "../../platform/store/db.js";
import type { Corpus } from "../../platform/store/schema.js";
import { jsonArrayHasAny, jsonKeyEquals } from "./json-sql.js";

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
export interface Visibility {
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
}

const SOURCE_COLUMNS = { type: "type", title: "title", description: "description", url: "url", timestamp: "item_timestamp" } as const;

/** The predicate over `context_items` aliased `alias`; every condition runs in SQL, so counts and pages agree. */
export function visibleItem(backend: Backend, alias: string, v: Visibility): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const parts: RawBuilder<unknown>[] = [
    sql`${col("database_id")} = ${v.databaseId}`,
    v.collections && v.collections.length > 0 ? sql`${col("collection")} IN (${sql.join([...v.collections])})` : sql`${col("collection")} = ${v.collection}`,
    sql`${col("corpus")} IN (${sql.join([...v.corpora])})`,
    sql`(${col("expires_at")} IS NULL OR ${col("expires_at")} > ${v.now})`,
  ];
  if (v.ids !== null) parts.push(v.ids.length > 0 ? sql`${col("source_id")} IN (${sql.join([...v.ids])})` : sql`1 = 0`);
  for (const [key, value] of Object.entries(v.metadata)) parts.push(jsonKeyEquals(backend, `${alias}.metadata`, key, value));
  for (const [key, value] of Object.entries(v.additional)) parts.push(jsonKeyEquals(backend, `${alias}.additional_metadata`, key, value));
  for (const [field, column] of Object.entries(SOURCE_COLUMNS)) {
    const value = v.sourceFields[field as keyof SourceFieldFilter];
    if (value !== undefined) parts.push(sql`${col(column)} = ${value}`);
  }
  if (v.excludeConnectorItems === true) parts.push(sql`${col("connector_id")} IS NULL`);
  if (v.principals !== null) parts.push(sql`(${col("acl")} IS NULL OR ${jsonArrayHasAny(backend, `${alias}.acl`, v.principals)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}
