import { sql, type Compilable, type RawBuilder, type SqlBool } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import { statementTemplate, type StatementTemplate } from "../../platform/store/statement-templates.js";
import type { Corpus } from "./item-types.js";
import type { SourceFieldFilter, Visibility } from "./item-visibility.js";

/*
 * The SQL half of item visibility (item-visibility.ts): the predicate the stores that read
 * items (lists, search, graph traversal) put in their WHERE clauses. Every condition runs in
 * SQL, starting with the organization, so counts and pages agree and no row of another
 * organization is ever admitted.
 */

const SOURCE_COLUMNS = { type: "type", title: "title", description: "description", url: "url", timestamp: "item_timestamp" } as const;

/** The predicate over `context_items` aliased `alias`; every condition runs in SQL, so counts and pages agree. */
export function visibleItem(backend: Backend, alias: string, v: Visibility): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const parts: RawBuilder<unknown>[] = [
    sql`${col("org_id")} = ${v.orgId}`,
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
  for (const word of v.search ?? []) parts.push(containsWord(backend, alias, word));
  if (v.principals !== null) parts.push(sql`(${col("acl")} IS NULL OR ${jsonArrayHasAny(backend, `${alias}.acl`, v.principals)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/**
 * What a visibility without filters (no ids, metadata or source fields: a plain query's) binds.
 * Its SQL then depends only on its lists' lengths, the backend and two flags, so a statement
 * that carries it can be compiled once per shape (statement-templates.ts); a filter's SQL
 * depends on its values' JSON types, so filtered visibilities are built each time.
 */
interface PlainVisibility {
  readonly orgId: string;
  readonly databaseId: string;
  readonly collections: readonly string[];
  readonly corpora: readonly Corpus[];
  readonly principals: readonly string[];
  readonly now: number;
}

function plainValues(v: Visibility): PlainVisibility | null {
  if ((v.search ?? []).length > 0) return null;
  if (v.ids !== null || Object.keys(v.metadata).length > 0 || Object.keys(v.additional).length > 0) return null;
  if (Object.values(v.sourceFields).some((value) => value !== undefined)) return null;
  const collections = v.collections && v.collections.length > 0 ? v.collections : [v.collection];
  return { orgId: v.orgId, databaseId: v.databaseId, collections, corpora: v.corpora, principals: v.principals ?? [], now: v.now };
}

export interface VisibilityTemplate<V, R> {
  /** Runs the statement for the visibility and `values` on `db`: its rows. */
  run(db: Executor, backend: Backend, visible: Visibility, values: V): Promise<R[]>;
}

/**
 * A statement carrying a visibility predicate (`build` puts visibleItem(backend, alias, visible)
 * in it), compiled once per shape when the visibility has no filters (`shape(values)` names what
 * the rest of its SQL depends on, as for statementTemplate), built by Kysely on every run when it
 * has. `build` sees stand-ins for the values then: it must use them as values only.
 */
export function visibilityTemplate<V, R>(
  shape: (values: V) => string,
  build: (db: Executor, backend: Backend, visible: Visibility, values: V) => Compilable<R>,
): VisibilityTemplate<V, R> {
  type Bound = { plain: PlainVisibility; values: V };
  // One template per backend and flag pair: those choose SQL, so they cannot be bound values.
  const templates = new Map<string, StatementTemplate<Bound, R>>();
  const templateFor = (backend: Backend, excludeConnectorItems: boolean, scoped: boolean): StatementTemplate<Bound, R> => {
    const key = `${backend}:${excludeConnectorItems}:${scoped}`;
    let template = templates.get(key);
    if (template === undefined) {
      template = statementTemplate(
        (b: Bound) => `${b.plain.collections.length}:${b.plain.corpora.length}:${b.plain.principals.length}:${shape(b.values)}`,
        (db, b: Bound) =>
          build(
            db,
            backend,
            {
              orgId: b.plain.orgId,
              databaseId: b.plain.databaseId,
              collection: b.plain.collections[0]!,
              collections: b.plain.collections,
              corpora: b.plain.corpora,
              ids: null,
              metadata: {},
              additional: {},
              sourceFields: {},
              principals: scoped ? b.plain.principals : null,
              now: b.plain.now,
              excludeConnectorItems,
            },
            b.values,
          ),
      );
      templates.set(key, template);
    }
    return template;
  };
  return {
    async run(db, backend, visible, values) {
      const plain = plainValues(visible);
      if (plain === null) return (await db.executeQuery(build(db, backend, visible, values).compile())).rows;
      return templateFor(backend, visible.excludeConnectorItems === true, visible.principals !== null).run(db, { plain, values });
    },
  };
}

const ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ASCII_LOWER = "abcdefghijklmnopqrstuvwxyz";

/**
 * Whether `word` (already ASCII-lowercased) occurs in the item's title or in one of its chunks,
 * ASCII letters compared case-insensitively on both backends: SQLite's lower() folds only ASCII
 * (without ICU), so PostgreSQL folds the same 26 letters with translate() rather than its
 * locale-aware lower(), and a search finds the same items on either. strpos/instr take the word as
 * a plain string: `%` and `_` mean themselves, no LIKE escaping. A substring match: "deploy"
 * finds "redeploy" and "deployment". The chunk read uses the (item_id, position) index per item.
 */
function containsWord(backend: Backend, alias: string, word: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const folded = (expr: RawBuilder<unknown>) =>
    backend === "postgres" ? sql`strpos(translate(${expr}, ${ASCII_UPPER}, ${ASCII_LOWER}), ${word}) > 0` : sql`instr(lower(${expr}), ${word}) > 0`;
  return sql<SqlBool>`(${folded(sql`${col("title")}`)} OR EXISTS (
    SELECT 1 FROM context_chunks search_chunk
    WHERE search_chunk.item_id = ${col("id")} AND search_chunk.org_id = ${col("org_id")} AND ${folded(sql`search_chunk.content`)}))`;
}

/**
 * SQL over the JSON text columns of `context_items`, the one place where the two backends
 * differ: SQLite walks JSON with `json_each`, PostgreSQL casts to `jsonb`. Keys and values are
 * always bound parameters, so any key (dots, quotes) is safe.
 */

/** Type-exact equality of a top-level key of a JSON object column (`"1"` is not `1`, `true` is not `1`). */
function jsonKeyEquals(backend: Backend, column: string, key: string, value: unknown): RawBuilder<SqlBool> {
  const col = sql.ref(column);
  if (backend === "postgres") {
    // jsonb equality is exact on type, order-insensitive on object keys, numeric on numbers.
    return sql<SqlBool>`((${col})::jsonb -> ${key}::text) = ${JSON.stringify(value)}::jsonb`;
  }
  return sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${col}) je WHERE je.key = ${key} AND ${sqliteValueMatch(value)})`;
}

function sqliteValueMatch(value: unknown): RawBuilder<SqlBool> {
  if (value === null) return sql<SqlBool>`je.type = 'null'`;
  switch (typeof value) {
    case "boolean":
      return value ? sql<SqlBool>`je.type = 'true'` : sql<SqlBool>`je.type = 'false'`;
    case "number":
      return sql<SqlBool>`je.type IN ('integer', 'real') AND je.value = ${value}`;
    case "string":
      return sql<SqlBool>`je.type = 'text' AND je.value = ${value}`;
    default:
      // arrays and objects: compared as minified JSON text (object key order matters here)
      return sql<SqlBool>`je.type IN ('array', 'object') AND je.value = json(${JSON.stringify(value)})`;
  }
}

/** Whether a JSON array column holds at least one of `values` (text elements). */
function jsonArrayHasAny(backend: Backend, column: string, values: readonly string[]): RawBuilder<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  const col = sql.ref(column);
  const list = sql.join(values.map((v) => sql`${v}`));
  return backend === "postgres"
    ? sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text((${col})::jsonb) AS el(v) WHERE el.v IN (${list}))`
    : sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${col}) el WHERE el.value IN (${list}))`;
}
