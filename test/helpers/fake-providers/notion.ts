import { randomUUID } from "node:crypto";
import { decodeOffset, encodeOffset, FakeHttpServer, type FakeRequest, type FakeResponse } from "./fake-http.js";
import type { NotionParent } from "../../../src/features/connectors/notion/client.js";
import type { DemoWorkspace } from "./demo-workspace.js";

/** A block as a test writes it: a paragraph, or a heading, to-do or toggle (with children). */
export type BlockSpec = string | { heading: string } | { todo: string; checked?: boolean } | { toggle: string; children: BlockSpec[] };

interface FakeBlock {
  id: string;
  type: string;
  text: string;
  checked?: boolean;
  children: FakeBlock[];
}

interface FakePage {
  id: string;
  title: string;
  parent: NotionParent;
  created_time: string;
  last_edited_time: string;
  created_by: string;
  last_edited_by: string;
  in_trash: boolean;
  blocks: FakeBlock[];
}

const rich = (text: string) => [{ type: "text", text: { content: text, link: null }, plain_text: text, href: null }];
const error = (status: number, code: string, message: string, headers?: Record<string, string>): FakeResponse => ({
  status,
  body: { object: "error", status, code, message },
  ...(headers ? { headers } : {}),
});

/**
 * A local Notion API (`/v1`): users/me, users/{id}, search (object filter, newest edit first),
 * databases/{id} (with data_sources), data_sources/{id}/query (last_edited_time filter, sorts),
 * pages/{id}, blocks/{id} (with its parent) and blocks/{id}/children,
 * cursor-paged like Notion (start_cursor, page_size, next_cursor, has_more). Times are rounded
 * down to the minute as Notion's are. Errors are `{object:"error", status, code, message}`: 401
 * unauthorized, 404 object_not_found, 429 rate_limited with Retry-After.
 */
export class FakeNotion {
  readonly tokens = new Set<string>();
  private readonly revoked = new Set<string>();
  private readonly users = new Map<string, { id: string; name: string; email: string }>();
  private readonly pages = new Map<string, FakePage>();
  private readonly databases = new Map<string, { id: string; title: string; sources: string[]; created: string }>();
  private readonly sources = new Map<string, { id: string; name: string; databaseId: string }>();
  private rateLimited: { count: number; retryAfter: number } | null = null;
  private readonly botUser = "bot-" + randomUUID().slice(0, 8);

  private constructor(
    readonly http: FakeHttpServer,
    readonly workspace: string,
    /** Epoch ms for created/edited times (rounded down to the minute); tests may move it. */
    public clock: () => number,
  ) {}

  static async start(options: { workspace?: string; token?: string; clock?: () => number } = {}): Promise<FakeNotion> {
    let fake: FakeNotion | null = null;
    const http = await FakeHttpServer.start((req) => fake!.handle(req));
    fake = new FakeNotion(http, options.workspace ?? "Acme Wiki", options.clock ?? Date.now);
    fake.tokens.add(options.token ?? "ntn_fake_token");
    return fake;
  }

  /** The base URL to configure as CONNECTOR_NOTION_API_URL (the client adds /v1). */
  get url(): string {
    return this.http.origin;
  }

  private minute(): string {
    return new Date(Math.floor(this.clock() / 60_000) * 60_000).toISOString();
  }

  addUser(name: string, email: string): string {
    const id = randomUUID();
    this.users.set(id, { id, name, email });
    return id;
  }

  addDatabase(title: string): string {
    const id = randomUUID();
    const source = randomUUID();
    this.databases.set(id, { id, title, sources: [source], created: this.minute() });
    this.sources.set(source, { id: source, name: title, databaseId: id });
    return id;
  }

  /** Creates a page under the workspace, a page (it appears as a child_page block there) or a database. */
  addPage(p: { title: string; parent?: { pageId: string } | { blockId: string } | { databaseId: string }; blocks?: BlockSpec[]; author?: string }): string {
    const id = randomUUID();
    let parent: NotionParent = { type: "workspace", workspace: true };
    if (p.parent && "blockId" in p.parent) {
      const holder = this.located(p.parent.blockId);
      if (!holder) throw new Error(`no block ${p.parent.blockId}`);
      holder.block.children.push({ id, type: "child_page", text: p.title, children: [] });
      parent = { type: "block_id", block_id: holder.block.id };
    } else if (p.parent && "pageId" in p.parent) {
      const above = this.page(p.parent.pageId);
      above.blocks.push({ id, type: "child_page", text: p.title, children: [] });
      parent = { type: "page_id", page_id: above.id };
    } else if (p.parent && "databaseId" in p.parent) {
      const db = this.databases.get(p.parent.databaseId);
      if (!db) throw new Error(`no database ${p.parent.databaseId}`);
      parent = { type: "data_source_id", data_source_id: db.sources[0] ?? "", database_id: db.id };
    }
    const at = this.minute();
    const author = p.author ?? this.botUser;
    this.pages.set(id, {
      id,
      title: p.title,
      parent,
      created_time: at,
      last_edited_time: at,
      created_by: author,
      last_edited_by: author,
      in_trash: false,
      blocks: (p.blocks ?? []).map((b) => this.block(b)),
    });
    return id;
  }

  /** Edits a page's title or replaces its text blocks (sub-pages stay); moves last_edited_time. */
  editPage(id: string, patch: { title?: string; blocks?: BlockSpec[]; editor?: string }): void {
    const page = this.page(id);
    if (patch.title !== undefined) page.title = patch.title;
    if (patch.blocks !== undefined) page.blocks = [...patch.blocks.map((b) => this.block(b)), ...page.blocks.filter((b) => b.type === "child_page")];
    page.last_edited_time = this.minute();
    if (patch.editor) page.last_edited_by = patch.editor;
  }

  /** The id of the first toggle block of a page with this text (to put a sub-page inside it). */
  toggleId(pageId: string, text: string): string {
    const found = this.page(pageId).blocks.find((b) => b.type === "toggle" && b.text === text);
    if (!found) throw new Error(`no toggle "${text}" on ${pageId}`);
    return found.id;
  }

  /** Moves a page to the trash: it leaves its parent's blocks and queries; GET shows in_trash. */
  trashPage(id: string): void {
    const page = this.page(id);
    page.in_trash = true;
    page.last_edited_time = this.minute();
    for (const p of this.pages.values()) p.blocks = p.blocks.filter((b) => b.id !== id);
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  /** The next `count` calls answer 429 rate_limited with Retry-After: `retryAfterSeconds`. */
  rateLimitNext(retryAfterSeconds: number, count = 1): void {
    this.rateLimited = { count, retryAfter: retryAfterSeconds };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private page(id: string): FakePage {
    const page = this.pages.get(id);
    if (!page) throw new Error(`no page ${id}`);
    return page;
  }

  private block(spec: BlockSpec): FakeBlock {
    const id = randomUUID();
    if (typeof spec === "string") return { id, type: "paragraph", text: spec, children: [] };
    if ("heading" in spec) return { id, type: "heading_2", text: spec.heading, children: [] };
    if ("todo" in spec) return { id, type: "to_do", text: spec.todo, checked: spec.checked === true, children: [] };
    return { id, type: "toggle", text: spec.toggle, children: spec.children.map((c) => this.block(c)) };
  }

  private handle(req: FakeRequest): FakeResponse {
    if (this.rateLimited && this.rateLimited.count > 0) {
      this.rateLimited.count--;
      return error(429, "rate_limited", "You have been rate limited. Please try again in a few minutes.", {
        "retry-after": String(this.rateLimited.retryAfter),
      });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token || !this.tokens.has(token) || this.revoked.has(token)) return error(401, "unauthorized", "API token is invalid.");
    if (!req.headers["notion-version"]) return error(400, "missing_version", "Notion-Version header failed validation.");
    const path = req.url.pathname;
    const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    const q = req.url.searchParams;
    const size = (raw: unknown): number => Math.min(100, Math.max(1, Number(raw ?? 100) || 100));
    let m: RegExpExecArray | null;
    if (req.method === "GET" && path === "/v1/users/me")
      return ok({
        object: "user",
        id: this.botUser,
        type: "bot",
        name: "Context store",
        bot: { owner: { type: "workspace", workspace: true }, workspace_name: this.workspace },
      });
    if (req.method === "GET" && (m = /^\/v1\/users\/([^/]+)$/.exec(path))) {
      const u = this.users.get(m[1] ?? "");
      return u
        ? ok({ object: "user", id: u.id, type: "person", name: u.name, person: { email: u.email } })
        : error(404, "object_not_found", "Could not find user.");
    }
    if (req.method === "POST" && path === "/v1/search") {
      const only = (body.filter as { property?: string; value?: string } | undefined)?.value;
      const found = [
        ...[...this.pages.values()].filter((p) => !p.in_trash && only !== "data_source").map((p) => this.pageObject(p)),
        ...[...this.sources.values()]
          .filter(() => only !== "page")
          .map((s) => ({
            object: "data_source",
            id: s.id,
            title: rich(s.name),
            parent: { type: "database_id", database_id: s.databaseId },
            last_edited_time: this.databases.get(s.databaseId)?.created ?? "",
          })),
      ].sort((a, b) => String(b.last_edited_time).localeCompare(String(a.last_edited_time)));
      return list(found, body.start_cursor, size(body.page_size), "page_or_data_source");
    }
    if (req.method === "GET" && (m = /^\/v1\/databases\/([^/]+)$/.exec(path))) {
      const db = this.databases.get(m[1] ?? "");
      if (!db) return error(404, "object_not_found", "Could not find database. Make sure it is shared with your integration.");
      return ok({
        object: "database",
        id: db.id,
        title: rich(db.title),
        url: `https://notion.test/${db.id}`,
        in_trash: false,
        data_sources: db.sources.map((id) => ({ id, name: this.sources.get(id)?.name ?? "" })),
      });
    }
    if (req.method === "POST" && (m = /^\/v1\/data_sources\/([^/]+)\/query$/.exec(path))) {
      const source = this.sources.get(m[1] ?? "");
      if (!source) return error(404, "object_not_found", "Could not find data source.");
      const since = (body.filter as { last_edited_time?: { on_or_after?: string } } | undefined)?.last_edited_time?.on_or_after;
      const desc = (body.sorts as Array<{ direction?: string }> | undefined)?.[0]?.direction === "descending";
      const rows = [...this.pages.values()]
        .filter(
          (p) =>
            !p.in_trash &&
            p.parent.type === "data_source_id" &&
            p.parent.data_source_id === source.id &&
            (since === undefined || Date.parse(p.last_edited_time) >= Date.parse(since)),
        )
        .sort((a, b) => a.last_edited_time.localeCompare(b.last_edited_time) * (desc ? -1 : 1))
        .map((p) => this.pageObject(p));
      return list(rows, body.start_cursor, size(body.page_size), "page_or_data_source");
    }
    if (req.method === "GET" && (m = /^\/v1\/pages\/([^/]+)$/.exec(path))) {
      const page = this.pages.get(m[1] ?? "");
      return page ? ok(this.pageObject(page)) : error(404, "object_not_found", "Could not find page. Make sure it is shared with your integration.");
    }
    if (req.method === "GET" && (m = /^\/v1\/blocks\/([^/]+)$/.exec(path))) {
      const at = this.located(m[1] ?? "");
      if (!at) return error(404, "object_not_found", "Could not find block.");
      return ok({ ...this.blockObject(at.block), parent: at.parent });
    }
    if (req.method === "GET" && (m = /^\/v1\/blocks\/([^/]+)\/children$/.exec(path))) {
      const blocks = this.childrenOf(m[1] ?? "");
      if (!blocks) return error(404, "object_not_found", "Could not find block.");
      return list(
        blocks.map((b) => this.blockObject(b)),
        q.get("start_cursor"),
        size(q.get("page_size")),
        "block",
      );
    }
    return error(400, "invalid_request_url", "Invalid request URL.");
  }

  /** A block of a page not in the trash, and its parent (the page, or the block holding it). */
  private located(id: string): { block: FakeBlock; parent: NotionParent } | null {
    const find = (blocks: readonly FakeBlock[], parent: NotionParent): { block: FakeBlock; parent: NotionParent } | null => {
      for (const b of blocks) {
        if (b.id === id) return { block: b, parent };
        const inner = find(b.children, { type: "block_id", block_id: b.id });
        if (inner) return inner;
      }
      return null;
    };
    for (const p of this.pages.values()) {
      const found = p.in_trash ? null : find(p.blocks, { type: "page_id", page_id: p.id });
      if (found) return found;
    }
    return null;
  }

  private childrenOf(id: string): FakeBlock[] | null {
    const page = this.pages.get(id);
    if (page) return page.in_trash ? null : page.blocks;
    const find = (blocks: readonly FakeBlock[]): FakeBlock | undefined => {
      for (const b of blocks) {
        if (b.id === id) return b;
        const inner = find(b.children);
        if (inner) return inner;
      }
      return undefined;
    };
    for (const p of this.pages.values()) {
      const b = find(p.blocks);
      if (b) return b.children;
    }
    return null;
  }

  private pageObject(p: FakePage): Record<string, unknown> & { last_edited_time: string } {
    return {
      object: "page",
      id: p.id,
      created_time: p.created_time,
      last_edited_time: p.last_edited_time,
      created_by: { object: "user", id: p.created_by },
      last_edited_by: { object: "user", id: p.last_edited_by },
      parent: p.parent,
      in_trash: p.in_trash,
      archived: p.in_trash,
      url: `https://notion.test/${p.id.replaceAll("-", "")}`,
      properties: { [p.parent.type === "data_source_id" ? "Name" : "title"]: { id: "title", type: "title", title: rich(p.title) } },
    };
  }

  private blockObject(b: FakeBlock): Record<string, unknown> {
    const base = { object: "block", id: b.id, type: b.type, in_trash: false, created_time: this.minute(), last_edited_time: this.minute() };
    if (b.type === "child_page")
      return { ...base, has_children: (this.pages.get(b.id)?.blocks.length ?? 0) > 0, child_page: { title: this.pages.get(b.id)?.title ?? b.text } };
    return {
      ...base,
      has_children: b.children.length > 0,
      [b.type]: { rich_text: rich(b.text), color: "default", ...(b.type === "to_do" ? { checked: b.checked === true } : {}) },
    };
  }
}

const ok = (body: unknown): FakeResponse => ({ status: 200, body });

function list(items: readonly unknown[], cursor: unknown, pageSize: number, type: string): FakeResponse {
  const start = decodeOffset(typeof cursor === "string" ? cursor : null);
  if (start < 0) return error(400, "validation_error", "start_cursor is invalid.");
  const more = start + pageSize < items.length;
  return ok({
    object: "list",
    results: items.slice(start, start + pageSize),
    next_cursor: more ? encodeOffset(start + pageSize) : null,
    has_more: more,
    type,
    [type]: {},
  });
}

/** A small generated Notion workspace (a wiki page tree and a database of entries) for the demo. */
function seedNotionWorkspace(fake: FakeNotion, options: { pages?: number; entries?: number } = {}): { rootPageId: string; databaseId: string } {
  const ada = fake.addUser("Ada Lovelace", "ada@example.com");
  const root = fake.addPage({
    title: "Engineering handbook",
    author: ada,
    blocks: [{ heading: "How we work" }, "We ship small changes behind flags.", { toggle: "On-call", children: ["Page the secondary after 15 minutes."] }],
  });
  const topics = ["Deploying", "Code review", "Incident response", "Release notes", "Database migrations"];
  for (let i = 0; i < (options.pages ?? 4); i++) {
    const topic = topics[i % topics.length] ?? "Notes";
    fake.addPage({
      title: `${topic}${i >= topics.length ? ` ${i + 1}` : ""}`,
      parent: { pageId: root },
      author: ada,
      blocks: [`${topic}: the checklist we follow.`, { todo: "Write it down", checked: i % 2 === 0 }],
    });
  }
  const databaseId = fake.addDatabase("Meeting notes");
  for (let i = 0; i < (options.entries ?? 3); i++)
    fake.addPage({ title: `Weekly sync ${i + 1}`, parent: { databaseId }, author: ada, blocks: [`Decisions of week ${i + 1}: ship the billing migration.`] });
  return { rootPageId: root, databaseId };
}

/** A small Notion workspace for the demo: a handbook page tree and a database of meeting notes. */
export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const token = "ntn_demo_token";
  const notion = await FakeNotion.start({ token, workspace: "Demo Wiki" });
  const pages = 4;
  const entries = 3;
  const { rootPageId, databaseId } = seedNotionWorkspace(notion, { pages, entries });
  return {
    provider: "notion",
    env: { CONNECTOR_NOTION_API_URL: notion.url },
    credentials: { api_token: token },
    resources: [
      { resource_id: rootPageId, resource_type: "notion_page" },
      { resource_id: databaseId, resource_type: "notion_database" },
    ],
    objects: 1 + pages + entries,
    sampleQuery: "when do we page the secondary on call",
    close: () => notion.close(),
  };
}
