import type { Executor } from "../../platform/store/db.js";
import { itemsBySource, neighborsOf, type GraphItem, type Neighbor, type Tie, type TraversalScope } from "./traversal-store.js";

export interface Member {
  readonly item: GraphItem;
  readonly depth: number;
  /** Source id of the member it was first reached from; unset on the start items. */
  readonly via?: string;
  /** `same_thread`, `parent`, `child` or the declared relation type; unset on the start items. */
  readonly relation?: string;
}

export interface Traversal {
  readonly members: readonly Member[];
  readonly isTruncated: boolean;
  readonly maxDepthReached: number;
}

/** Explicit links first, then the hierarchy, then threads: the strongest tie names a member. */
const PRIORITY: Record<Tie["kind"], number> = { relates_to: 0, parent: 1, child: 2, same_thread: 3 };

const relationOf = (tie: Tie): string => (tie.kind === "relates_to" ? tie.type : tie.kind);

/**
 * Breadth-first traversal of the item-level graph from `startIds` (depth 0). Each hop only
 * admits items visible to the caller, so a hidden item also hides what lies behind it. When
 * `maxMembers` is reached the members kept are the nearest, in a stable order.
 */
export async function traverse(db: Executor, s: TraversalScope, startIds: readonly string[], maxDepth: number, maxMembers: number): Promise<Traversal> {
  const starts = await itemsBySource(db, s, startIds);
  starts.sort((a, b) => startIds.indexOf(a.source_id) - startIds.indexOf(b.source_id));
  const members: Member[] = [];
  const seen = new Set<string>();
  for (const item of starts.slice(0, maxMembers)) {
    members.push({ item, depth: 0 });
    seen.add(item.id);
  }
  let isTruncated = starts.length > maxMembers;
  let frontier = members.map((m) => m.item);
  for (let depth = 1; depth <= maxDepth && frontier.length > 0 && !isTruncated; depth += 1) {
    const order = new Map(frontier.map((f, i) => [f.id, i]));
    // One more than the free slots tells whether this hop would overflow them.
    const found = await neighborsOf(
      db,
      s,
      frontier,
      members.map((m) => m.item),
      maxMembers - members.length + 1,
    );
    found.sort(
      (a: Neighbor, b: Neighbor) =>
        PRIORITY[a.tie.kind] - PRIORITY[b.tie.kind] ||
        (order.get(a.from.id) ?? 0) - (order.get(b.from.id) ?? 0) ||
        a.item.source_id.localeCompare(b.item.source_id),
    );
    const next: GraphItem[] = [];
    for (const n of found) {
      if (seen.has(n.item.id)) continue;
      if (members.length >= maxMembers) {
        isTruncated = true;
        break;
      }
      seen.add(n.item.id);
      members.push({ item: n.item, depth, via: n.from.source_id, relation: relationOf(n.tie) });
      next.push(n.item);
    }
    frontier = next;
  }
  return { members, isTruncated, maxDepthReached: members.reduce((max, m) => Math.max(max, m.depth), 0) };
}
