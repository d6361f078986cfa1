import type { Executor, Store } from "../../platform/store/db.js";
import { linksAmong, type GraphItem, type TraversalScope } from "./traversal-store.js";
import { traversalScopeOf, type GraphRead } from "./request-scope.js";
import { traverse, type Member } from "./traverse.js";
import { toWire, tripletsOfItems } from "./graph-read-store.js";
import { itemTriplet, type WireTriplet } from "./wire.js";

export interface SubgraphRequest extends GraphRead {
  readonly id: string;
  readonly depth: number;
  readonly maxSources: number;
}

export interface SubgraphMember {
  source_id: string;
  title: string;
  app_kind: string | null;
  app_provider: string | null;
  app_external_id: string | null;
  thread_id: string | null;
  depth: number;
  hydration: "resolved";
  discovered_via?: string;
  discovered_relation?: string;
}

export interface Subgraph {
  success: true;
  message: string;
  seed_source_id: string;
  sources: SubgraphMember[];
  relations: WireTriplet[];
  auxiliary_relations: WireTriplet[];
  auxiliary_truncated: boolean;
  is_truncated: boolean;
  max_depth_reached: number;
}

/** Structural triplets returned around the members at most; beyond, `auxiliary_truncated`. */
const MAX_AUXILIARY = 500;

const timeOf = (item: GraphItem): number => item.item_timestamp ?? item.created_at;

function memberOf(m: Member): SubgraphMember {
  const { item } = m;
  return {
    source_id: item.source_id,
    title: item.title,
    app_kind: item.app_kind,
    app_provider: item.app_provider,
    app_external_id: item.app_external_id,
    thread_id: item.thread_id,
    depth: m.depth,
    hydration: "resolved",
    ...(m.via === undefined ? {} : { discovered_via: m.via }),
    ...(m.relation === undefined ? {} : { discovered_relation: m.relation }),
  };
}

/** Thread ties among members: consecutive messages of each thread, oldest first. */
function threadTriplets(items: readonly GraphItem[]): WireTriplet[] {
  const roots = new Map<string, string>();
  for (const i of items) if (i.thread_id !== null) roots.set(i.thread_id, i.thread_id);
  const keyOf = (i: GraphItem): string | undefined =>
    i.thread_id ?? roots.get(i.source_id) ?? (i.app_external_id === null ? undefined : roots.get(i.app_external_id));
  const threads = new Map<string, GraphItem[]>();
  for (const i of items) {
    const key = keyOf(i);
    if (key !== undefined) threads.set(key, [...(threads.get(key) ?? []), i]);
  }
  const out: WireTriplet[] = [];
  for (const list of threads.values()) {
    list.sort((a, b) => timeOf(a) - timeOf(b) || a.source_id.localeCompare(b.source_id));
    for (let i = 1; i < list.length; i += 1) {
      const [a, b] = [list[i - 1], list[i]];
      if (a !== undefined && b !== undefined) out.push(itemTriplet(a, b, "same_thread", "same_thread", timeOf(b)));
    }
  }
  return out;
}

/** Item-level relations among members: declared links, parent_of and thread ties. */
async function memberRelations(db: Executor, s: TraversalScope, items: readonly GraphItem[]): Promise<WireTriplet[]> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const bySource = new Map(items.map((i) => [i.source_id, i]));
  const out: WireTriplet[] = [];
  for (const link of await linksAmong(db, s, items)) {
    const owner = byId.get(link.fromId);
    const target = bySource.get(link.toSource);
    if (owner === undefined || target === undefined) continue;
    out.push(
      link.kind === "parent" ? itemTriplet(target, owner, "parent_of", "parent_of", link.at) : itemTriplet(owner, target, "relates_to", link.type, link.at),
    );
  }
  return [...out, ...threadTriplets(items)];
}

const emptySubgraph = (id: string): Subgraph => ({
  success: true,
  message: "no item with this id is visible in this graph",
  seed_source_id: id,
  sources: [],
  relations: [],
  auxiliary_relations: [],
  auxiliary_truncated: false,
  is_truncated: false,
  max_depth_reached: 0,
});

/** GET /context/{id}/subgraph: the connected item-level subgraph around one item. */
export class SubgraphService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async subgraph(req: SubgraphRequest): Promise<Subgraph> {
    const s = traversalScopeOf(this.store.backend, req, this.now());
    return this.store.snapshot(async (db) => {
      const walk = await traverse(db, s, [req.id], req.depth, req.maxSources);
      if (walk.members.length === 0) return emptySubgraph(req.id);
      const items = walk.members.map((m) => m.item);
      const auxiliary = await tripletsOfItems(
        db,
        s,
        items.map((i) => i.id),
        "structural",
        MAX_AUXILIARY + 1,
      );
      return {
        success: true,
        message: `${walk.members.length} source(s) within depth ${req.depth}`,
        seed_source_id: req.id,
        sources: walk.members.map(memberOf),
        relations: await memberRelations(db, s, items),
        auxiliary_relations: auxiliary.slice(0, MAX_AUXILIARY).map(toWire),
        auxiliary_truncated: auxiliary.length > MAX_AUXILIARY,
        is_truncated: walk.isTruncated,
        max_depth_reached: walk.maxDepthReached,
      };
    });
  }
}
