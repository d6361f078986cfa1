import type { SchemaField } from "../databases/metadata-schema.js";
import { defaultCollectionOf, type DatabaseService } from "../databases/service.js";
import type { Store } from "../../platform/store/db.js";
import { commentRow, knowledgeRow, memoryRow } from "./item-render.js";
import { checkFilterClauses, type Visibility } from "./item-visibility.js";
import type { ListQuery } from "./list-request.js";
import { ListStore } from "./list-store.js";
import { commentsOf } from "./thread-fold.js";

export interface Pagination {
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
  has_next: boolean;
  has_previous: boolean;
}

export interface ListResult {
  success: true;
  message: string;
  sources?: Record<string, unknown>[];
  user_memories?: Record<string, unknown>[];
  total: number;
  pagination: Pagination;
}

/** Keeps the filter keys the schema declares with `enable_match`; others are ignored, as the contract says. */
function matchableOnly(schema: readonly SchemaField[], filter: Record<string, unknown>): Record<string, unknown> {
  const matchable = new Set(schema.filter((f) => f.enable_match).map((f) => f.name));
  return Object.fromEntries(Object.entries(filter).filter(([k]) => matchable.has(k)));
}

/** POST /context/list: pages of knowledge sources and/or memories with exact-match filters, in SQL. */
export class ListService {
  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    private readonly now: () => number = Date.now,
  ) {}

  async list(orgId: string, q: ListQuery): Promise<ListResult> {
    const database = await this.databases.get(orgId, q.database);
    const schema = JSON.parse(database.metadata_schema) as SchemaField[];
    const v: Visibility = {
      orgId: database.org_id,
      databaseId: database.id,
      collection: q.collection ?? defaultCollectionOf(database),
      corpora: q.corpora,
      ids: q.ids,
      metadata: matchableOnly(schema, q.metadata),
      additional: q.additional,
      sourceFields: q.sourceFields,
      principals: q.principals,
      now: this.now(),
      search: q.search,
    };
    checkFilterClauses(v);
    const list = new ListStore(this.store.reader, this.store.backend);
    const { total, rows } = await list.page(v, q.foldThreads, q.pageSize, (q.page - 1) * q.pageSize);

    const knowledge = rows.filter((r) => r.corpus === "knowledge");
    const threads = q.foldThreads && knowledge.length > 0 ? await commentsOf(list, v, knowledge, q.maxComments) : null;
    const sources = knowledge.map((item) => {
      const row = knowledgeRow(item, database.name, q.includeFields);
      const thread = threads?.get(item.id);
      if (thread) {
        row.comments = thread.comments.map(commentRow);
        row.comments_truncated = thread.truncated;
      }
      return row;
    });
    const memories = rows.filter((r) => r.corpus === "memory").map((item) => memoryRow(item, database.name));
    const totalPages = Math.ceil(total / q.pageSize);
    return {
      success: true,
      message: `${rows.length} of ${total} item(s)`,
      ...(q.corpora.includes("knowledge") ? { sources } : {}),
      ...(q.corpora.includes("memory") ? { user_memories: memories } : {}),
      total,
      pagination: {
        page: q.page,
        page_size: q.pageSize,
        total,
        total_pages: totalPages,
        has_next: q.page < totalPages,
        has_previous: q.page > 1,
      },
    };
  }
}
