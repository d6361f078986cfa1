import type { ConnectorProvider, Credentials, DiscoveredResource, SyncedObject } from "../provider.js";
import { ProviderError, nullIfNotFound } from "../provider-error.js";
import { ApiBase, ProviderTransport } from "../provider-transport.js";
import { tokenOf } from "../token-credentials.js";
import { NotionClient, plain, type NotionPage, type NotionUser } from "./client.js";
import { NOTION_DESCRIPTOR } from "./credentials.js";
import { blockText, notionPageObject, pageTitle } from "./mapping.js";
import { isoWindow } from "../iso-window.js";

// Each entry costs its block reads: a small query page keeps one pull (and its checkpoint) short.
const ENTRY_PAGE = 25;
const PAGES_PER_PULL = 10;
const MAX_BLOCK_DEPTH = 8;
// Search results a changes pull takes at once, and how far up it follows a page's parents.
const SEARCH_PAGE = 100;
const MAX_ANCESTRY = 32;

interface DatabaseState {
  mode: "database";
  sources: string[];
  index: number;
  cursor: string | null;
}
interface PagesState {
  mode: "pages";
  queue: Array<{ id: string; parent: string | null }>;
}
/**
 * A page tree's later windows: the pages edited since the window start, newest first from search,
 * each kept when its parents lead to the resource's root page (those found either way are
 * remembered for the rest of the window).
 */
interface ChangesState {
  mode: "changes";
  cursor: string | null;
  /** Search reached pages edited before the window, or its end. */
  done: boolean;
  /** Pages of the tree found and not read yet, with the page above each. */
  pending: Array<{ page: NotionPage; parent: string | null }>;
  /** Pages and blocks known to be inside the tree, or outside it. */
  inside: string[];
  outside: string[];
}
type NotionPullState = DatabaseState | PagesState | ChangesState;

/**
 * Notion: databases (`notion_database`) and pages (`notion_page`, the page and every sub-page
 * below it) are resources; every page becomes a `knowledge_base` item with its full block text
 * (children read recursively, every page of them). A database window queries its data sources
 * for entries edited on or after the window start. A page resource is walked whole on its first
 * window; later windows read only the pages search lists as edited since the window start whose
 * parents lead to the resource's page (search cannot filter by time, but sorts by edit time; a
 * tree of 1,000 pages costs one search call, not 2,000 calls, when nothing changed). Deletions are
 * found by the reconcile's whole walk.
 */
export function createNotionProvider(baseUrl: string, now: () => number = Date.now): ConnectorProvider {
  const transport = new ProviderTransport("Notion", new ApiBase(baseUrl));
  const client = (credentials: Credentials, signal: AbortSignal): NotionClient => new NotionClient(transport, tokenOf(credentials), signal, now);

  /** A page's text and the sub-pages found in it (also inside toggles and columns). */
  async function content(c: NotionClient, pageId: string): Promise<{ text: string; children: string[] }> {
    const lines: string[] = [];
    const children: string[] = [];
    const walk = async (blockId: string, depth: number): Promise<void> => {
      let cursor: string | null = null;
      do {
        const list = await c.blockChildren(blockId, cursor);
        for (const block of list.results) {
          if (block.in_trash === true) continue;
          if (block.type === "child_page") {
            children.push(block.id);
            continue;
          }
          const line = blockText(block);
          if (line !== "") lines.push(`${"  ".repeat(depth)}${line}`);
          if (block.has_children && block.type !== "child_database" && depth < MAX_BLOCK_DEPTH) await walk(block.id, depth + 1);
        }
        cursor = list.has_more ? list.next_cursor : null;
      } while (cursor !== null);
    };
    await walk(pageId, 0);
    return { text: lines.join("\n"), children };
  }

  /** Authors by id; users the integration may not read stay ids. */
  async function users(c: NotionClient, pages: readonly NotionPage[]): Promise<Map<string, NotionUser>> {
    const out = new Map<string, NotionUser>();
    for (const id of new Set(pages.flatMap((p) => [p.created_by?.id, p.last_edited_by?.id].filter((x): x is string => x !== undefined)))) {
      try {
        out.set(id, await c.user(id));
      } catch (err) {
        if (!(err instanceof ProviderError && err.kind === "not_found")) throw err;
      }
    }
    return out;
  }

  const gone = (p: NotionPage): boolean => p.in_trash === true || p.archived === true;

  /** The next pages of a page tree: each page, its text, its sub-pages queued. */
  async function walkPages(
    c: NotionClient,
    state: PagesState,
    rootId: string,
  ): Promise<{ pages: Array<{ page: NotionPage; text: string; parent: string | null }>; next: PagesState | null }> {
    const queue = [...state.queue];
    const out: Array<{ page: NotionPage; text: string; parent: string | null }> = [];
    for (let n = 0; n < PAGES_PER_PULL && queue.length > 0; n++) {
      const at = queue.shift()!;
      let page: NotionPage;
      try {
        page = await c.page(at.id);
      } catch (err) {
        // A sub-page removed between reading its parent and now; the root missing is the resource's failure.
        if (err instanceof ProviderError && err.kind === "not_found" && at.id !== rootId) continue;
        throw err;
      }
      if (gone(page)) continue;
      const { text, children } = await content(c, page.id);
      out.push({ page, text, parent: at.parent });
      queue.push(...children.map((id) => ({ id, parent: page.id })));
    }
    return { pages: out, next: queue.length > 0 ? { mode: "pages", queue } : null };
  }

  /**
   * Whether a page lies in the tree of `rootId` (its parents, through pages and blocks, lead
   * there), and the page right above it. Every page or block passed on the way is remembered
   * in `inside` or `outside` with the verdict.
   */
  async function placeInTree(
    c: NotionClient,
    page: NotionPage,
    rootId: string,
    inside: Set<string>,
    outside: Set<string>,
  ): Promise<{ inTree: boolean; parent: string | null }> {
    if (page.id === rootId) return { inTree: true, parent: null };
    const passed: string[] = [];
    let parent = page.parent;
    let above: string | null = null;
    let inTree = false;
    for (let depth = 0; depth < MAX_ANCESTRY; depth++) {
      if (parent.type !== "page_id" && parent.type !== "block_id") break; // the workspace or a database: outside
      const id = parent.type === "page_id" ? parent.page_id : parent.block_id;
      if (parent.type === "page_id") above ??= id;
      if (id === rootId || inside.has(id)) {
        inTree = true;
        break;
      }
      if (outside.has(id)) break;
      passed.push(id);
      try {
        if (parent.type === "page_id") {
          const up = await c.page(id);
          if (gone(up)) break;
          parent = up.parent;
        } else parent = (await c.block(id)).parent;
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "not_found") break; // above what is shared with us
        throw err;
      }
    }
    for (const id of passed) (inTree ? inside : outside).add(id);
    return { inTree, parent: above };
  }

  /** The next pages of a later window of a page tree (ChangesState). */
  async function changedPages(
    c: NotionClient,
    state: ChangesState,
    rootId: string,
    windowStart: string,
  ): Promise<{ pages: Array<{ page: NotionPage; text: string; parent: string | null }>; next: ChangesState | null }> {
    const pending = [...state.pending];
    let { cursor, done } = state;
    const inside = new Set(state.inside);
    const outside = new Set(state.outside);
    if (pending.length === 0 && !done) {
      const list = await c.searchPages(cursor, SEARCH_PAGE);
      for (const page of list.results) {
        if (Date.parse(page.last_edited_time) < Date.parse(windowStart)) {
          done = true;
          break;
        }
        if (page.object !== "page" || gone(page)) continue;
        const place = await placeInTree(c, page, rootId, inside, outside);
        if (place.inTree) pending.push({ page, parent: place.parent });
      }
      cursor = list.next_cursor;
      done ||= !list.has_more || cursor === null;
    }
    const pages: Array<{ page: NotionPage; text: string; parent: string | null }> = [];
    for (let n = 0; n < PAGES_PER_PULL && pending.length > 0; n++) {
      const at = pending.shift()!;
      pages.push({ page: at.page, text: (await content(c, at.page.id)).text, parent: at.parent });
    }
    const next: ChangesState = { mode: "changes", cursor, done, pending, inside: [...inside], outside: [...outside] };
    return { pages, next: pending.length > 0 || !done ? next : null };
  }

  async function databaseStart(c: NotionClient, databaseId: string): Promise<DatabaseState | null> {
    const db = await c.database(databaseId);
    const sources = (db.data_sources ?? []).map((s) => s.id);
    return sources.length > 0 ? { mode: "database", sources, index: 0, cursor: null } : null;
  }

  const advance = (s: DatabaseState, list: { has_more: boolean; next_cursor: string | null }): DatabaseState | null => {
    if (list.has_more && list.next_cursor) return { ...s, cursor: list.next_cursor };
    return s.index + 1 < s.sources.length ? { ...s, index: s.index + 1, cursor: null } : null;
  };

  return {
    descriptor: NOTION_DESCRIPTOR,

    async verify(credentials, signal) {
      const me = await client(credentials, signal).me();
      const workspace = me.bot?.workspace_name ?? me.name ?? me.id;
      return { accountScope: workspace, accountLabel: workspace };
    },

    async discover(credentials, page, signal) {
      const list = await client(credentials, signal).search(page.cursor, page.limit);
      const resources: DiscoveredResource[] = [];
      for (const r of list.results) {
        if (r.object === "data_source") {
          const databaseId = r.parent?.type === "database_id" ? r.parent.database_id : r.id;
          if (!resources.some((x) => x.id === databaseId))
            resources.push({
              id: databaseId,
              name: plain(r.title) || "Untitled",
              resource_type: "notion_database",
              metadata: { data_source_id: r.id, url: r.url ?? null },
            });
        } else if (r.parent.type !== "data_source_id" && r.parent.type !== "database_id") {
          // Database entries are synced through their database, not listed one by one.
          resources.push({
            id: r.id,
            name: pageTitle(r) || "Untitled",
            resource_type: "notion_page",
            metadata: { url: r.url ?? null, last_edited_time: r.last_edited_time, parent_type: r.parent.type },
          });
        }
      }
      return { resources, nextCursor: list.has_more ? list.next_cursor : null };
    },

    async describeResource(credentials, resourceType, resourceId, signal) {
      const c = client(credentials, signal);
      return nullIfNotFound(async () => {
        if (resourceType === "notion_database") {
          const db = await c.database(resourceId);
          return db.in_trash === true
            ? null
            : {
                id: db.id,
                name: plain(db.title) || "Untitled",
                resource_type: "notion_database",
                metadata: { data_source_ids: (db.data_sources ?? []).map((s) => s.id), url: db.url ?? null },
              };
        }
        if (resourceType === "notion_page") {
          const p = await c.page(resourceId);
          return gone(p) ? null : { id: p.id, name: pageTitle(p) || "Untitled", resource_type: "notion_page", metadata: { url: p.url ?? null } };
        }
        return null;
      });
    },

    async resourceAcl() {
      // Notion's API does not expose page permissions; the resource's own acl (configure) applies.
      return null;
    },

    openWindow: isoWindow,

    async pull(req) {
      const c = client(req.credentials, req.signal);
      const r = req.resource;
      const objects: SyncedObject[] = [];
      if (r.resourceType === "notion_page") {
        const state =
          (req.state as PagesState | ChangesState | null) ??
          (req.window.since === ""
            ? { mode: "pages", queue: [{ id: r.resourceId, parent: null }] }
            : { mode: "changes", cursor: null, done: false, pending: [], inside: [], outside: [] });
        const { pages, next } = state.mode === "pages" ? await walkPages(c, state, r.resourceId) : await changedPages(c, state, r.resourceId, req.window.start);
        const known = await users(
          c,
          pages.map((p) => p.page),
        );
        for (const p of pages)
          objects.push(notionPageObject(p.page, p.text, { resourceType: r.resourceType, parentPageId: p.parent, databaseId: null }, known));
        return { objects, next };
      }
      const state = (req.state as DatabaseState | null) ?? (await databaseStart(c, r.resourceId));
      if (state === null) return { objects, next: null };
      const list = await c.queryDataSource(state.sources[state.index] ?? "", {
        filter: { timestamp: "last_edited_time", last_edited_time: { on_or_after: req.window.start } },
        sorts: [{ timestamp: "last_edited_time", direction: "ascending" }],
        page_size: ENTRY_PAGE,
        ...(state.cursor ? { start_cursor: state.cursor } : {}),
      });
      const entries = list.results.filter((p) => !gone(p));
      const known = await users(c, entries);
      for (const page of entries)
        objects.push(
          notionPageObject(page, (await content(c, page.id)).text, { resourceType: r.resourceType, parentPageId: null, databaseId: r.resourceId }, known),
        );
      return { objects, next: advance(state, list) satisfies NotionPullState | null };
    },

    async listLiveIds(credentials, resource, state, signal) {
      const c = client(credentials, signal);
      if (resource.resourceType === "notion_page") {
        const s = (state as PagesState | null) ?? { mode: "pages", queue: [{ id: resource.resourceId, parent: null }] };
        const { pages, next } = await walkPages(c, s, resource.resourceId);
        return { ids: pages.map((p) => ({ kind: "knowledge_base" as const, nativeId: p.page.id })), next };
      }
      const s = (state as DatabaseState | null) ?? (await databaseStart(c, resource.resourceId));
      if (s === null) return { ids: [], next: null };
      const list = await c.queryDataSource(s.sources[s.index] ?? "", { page_size: 100, ...(s.cursor ? { start_cursor: s.cursor } : {}) });
      return { ids: list.results.filter((p) => !gone(p)).map((p) => ({ kind: "knowledge_base" as const, nativeId: p.id })), next: advance(s, list) };
    },
  };
}
