import { jsonBody, ProviderError, retryAfterAt } from "../provider-error.js";
import type { ProviderTransport } from "../provider-transport.js";

const NOTION_VERSION = "2025-09-03";

export interface RichText {
  plain_text?: string;
}

export type NotionParent =
  | { type: "workspace"; workspace: true }
  | { type: "page_id"; page_id: string }
  | { type: "block_id"; block_id: string }
  | { type: "database_id"; database_id: string }
  | { type: "data_source_id"; data_source_id: string; database_id?: string };

export interface NotionPage {
  object: "page";
  id: string;
  created_time: string;
  last_edited_time: string;
  created_by?: { id: string };
  last_edited_by?: { id: string };
  parent: NotionParent;
  in_trash?: boolean;
  archived?: boolean;
  properties: Record<string, { type: string; title?: RichText[] }>;
  url?: string;
}

export interface NotionDataSourceRef {
  object: "data_source";
  id: string;
  title?: RichText[];
  parent?: NotionParent;
  url?: string;
}

export interface NotionDatabase {
  object: "database";
  id: string;
  title?: RichText[];
  url?: string;
  data_sources?: Array<{ id: string; name?: string }>;
  in_trash?: boolean;
}

export interface NotionBlock {
  object: "block";
  id: string;
  type: string;
  has_children: boolean;
  in_trash?: boolean;
  [type: string]: unknown;
}

export interface NotionUser {
  id: string;
  name?: string | null;
  type?: "person" | "bot";
  person?: { email?: string };
  bot?: { workspace_name?: string | null; owner?: unknown };
}

export interface NotionList<T> {
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Plain text of a rich-text array. */
export const plain = (rich: readonly RichText[] | undefined): string => (rich ?? []).map((r) => r.plain_text ?? "").join("");

// Notion's 429 answers carry Retry-After; the SDK caps its own waits at a minute.
const DEFAULT_RETRY_MS = 60_000;

/**
 * Notion's REST API through the provider transport (`{base}/v1/...`, `Notion-Version: 2025-09-03`, Bearer token).
 * Errors are `{object:"error", status, code, message}`: 401 unauthorized -> auth, 429
 * rate_limited -> rate_limited at Retry-After, 404 object_not_found and 403
 * restricted_resource (not shared with the integration) -> not_found.
 */
export class NotionClient {
  constructor(
    private readonly transport: ProviderTransport,
    private readonly token: string,
    private readonly signal: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {}

  async call<T>(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<T> {
    const res = await this.transport.send(`${this.transport.base.toString()}/v1${path}`, {
      method,
      authorization: `Bearer ${this.token}`,
      headers: {
        "Notion-Version": NOTION_VERSION,
        ...(body ? { "Content-Type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: this.signal,
    });
    if (res.ok) return (await jsonBody("Notion", res)) as T;
    const text = await res.text();
    let error: { code?: string; message?: string } = {};
    try {
      error = JSON.parse(text) as typeof error;
    } catch {
      // a non-JSON error body: classified by status alone
    }
    const what = `${method} ${path.split("?")[0] ?? path}`;
    if (res.status === 429 || error.code === "rate_limited") {
      const at = retryAfterAt(res.headers.get("retry-after"), this.now()) ?? this.now() + DEFAULT_RETRY_MS;
      throw new ProviderError("rate_limited", `Notion rate-limited ${what}`, at);
    }
    if (res.status === 401 || error.code === "unauthorized") throw new ProviderError("auth", `Notion refused the token (${error.message ?? "unauthorized"})`);
    // A start_cursor Notion never issued (a caller's discover cursor) is the caller's mistake, not Notion's.
    if (res.status === 400 && error.code === "validation_error" && /start_cursor/i.test(error.message ?? "")) {
      throw new ProviderError("bad_cursor", `Notion ${what}: ${error.message ?? "start_cursor is invalid"}`);
    }
    if (res.status === 404 || res.status === 403) {
      throw new ProviderError("not_found", `Notion ${what}: ${error.message ?? error.code ?? res.status} (is it shared with the integration?)`);
    }
    throw new ProviderError("failed", `Notion answered HTTP ${res.status} to ${what}: ${error.message ?? text.slice(0, 200)}`);
  }

  me(): Promise<NotionUser> {
    return this.call("GET", "/users/me");
  }

  user(id: string): Promise<NotionUser> {
    return this.call("GET", `/users/${encodeURIComponent(id)}`);
  }

  search(cursor: string | null, pageSize: number): Promise<NotionList<NotionPage | NotionDataSourceRef>> {
    return this.call("POST", "/search", {
      sort: { timestamp: "last_edited_time", direction: "descending" },
      page_size: pageSize,
      ...(cursor ? { start_cursor: cursor } : {}),
    });
  }

  /** Pages only, most recently edited first (search cannot filter by time: the caller stops paging). */
  searchPages(cursor: string | null, pageSize: number): Promise<NotionList<NotionPage>> {
    return this.call("POST", "/search", {
      filter: { property: "object", value: "page" },
      sort: { timestamp: "last_edited_time", direction: "descending" },
      page_size: pageSize,
      ...(cursor ? { start_cursor: cursor } : {}),
    });
  }

  /** A block, for its parent (a page inside a toggle or column has a block as its parent). */
  block(id: string): Promise<NotionBlock & { parent: NotionParent }> {
    return this.call("GET", `/blocks/${encodeURIComponent(id)}`);
  }

  database(id: string): Promise<NotionDatabase> {
    return this.call("GET", `/databases/${encodeURIComponent(id)}`);
  }

  page(id: string): Promise<NotionPage> {
    return this.call("GET", `/pages/${encodeURIComponent(id)}`);
  }

  queryDataSource(id: string, body: Record<string, unknown>): Promise<NotionList<NotionPage>> {
    return this.call("POST", `/data_sources/${encodeURIComponent(id)}/query`, body);
  }

  blockChildren(id: string, cursor: string | null): Promise<NotionList<NotionBlock>> {
    const q = new URLSearchParams({ page_size: "100", ...(cursor ? { start_cursor: cursor } : {}) });
    return this.call("GET", `/blocks/${encodeURIComponent(id)}/children?${q.toString()}`);
  }
}
