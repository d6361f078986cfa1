import {
  createEntityResolver,
  type EntityMerge,
  type EntityResolver,
  type GraphEntity,
  type LlmRelationExtractor,
  type RelationTriplet,
} from "../../engines/extraction/index.js";
import type { ItemRow } from "../items/store.js";
import type { NormalizedAppItem } from "../../engines/documents/app-items/index.js";
import { speakerOf } from "./app-structure.js";
import { itemTimestamp, type ChunkMentions, type ItemGraph } from "./extract-item-graph.js";
import { graphScopeOf, resolutionScopeOf } from "./graph-write-store.js";

/**
 * Relation extraction through a chat model, run before the graph transaction (a model call
 * must not hold the write lock). Entities are resolved against a scratch table there; the
 * build maps each one back onto the persisted resolution with `onResolved`.
 */
export async function modelRelations(
  llm: LlmRelationExtractor,
  item: ItemRow,
  app: NormalizedAppItem | null,
  chunks: readonly ChunkMentions[],
): Promise<Map<string, RelationTriplet[]>> {
  const resolver = createEntityResolver(resolutionScopeOf(graphScopeOf(item)));
  const speaker = speakerOf(app, item.user_name);
  const out = new Map<string, RelationTriplet[]>();
  for (const { chunk, extraction } of chunks) {
    const outcome = await llm.extract(chunk.content, extraction, {
      chunkId: chunk.chunkId,
      timestamp: itemTimestamp(item),
      resolver,
      provider: item.app_provider ?? undefined,
      speaker,
    });
    out.set(chunk.chunkId, outcome.value);
  }
  return out;
}

/** An actor found with the scratch table, resolved again against the persisted one; other ids are deterministic. */
function onResolved(resolver: EntityResolver, entity: GraphEntity): GraphEntity {
  if (entity.type !== "ACTOR") return entity;
  const id = entity.identifier ?? "";
  const identity = id.startsWith("@") ? { name: entity.name, handle: id } : id.includes("@") ? { name: entity.name, email: id } : { name: entity.name };
  return resolver.resolvePerson({ ...identity, ...(entity.provider === undefined ? {} : { provider: entity.provider }) }) ?? entity;
}

export function remapModelTriplets(resolver: EntityResolver, found: ReadonlyMap<string, readonly RelationTriplet[]>): Map<string, RelationTriplet[]> {
  const out = new Map<string, RelationTriplet[]>();
  for (const [chunkId, triplets] of found) {
    out.set(
      chunkId,
      triplets.map((t) => {
        const source = onResolved(resolver, t.source);
        const target = onResolved(resolver, t.target);
        const relations = t.relations.map((r) => ({ ...r, source_entity_id: source.entity_id, target_entity_id: target.entity_id }));
        return { ...t, source, target, relations };
      }),
    );
  }
  return out;
}

/** Rewrites a built graph through the resolver's merges (an id that got a stronger key changed). */
export function mergeInGraph(graph: ItemGraph, merges: readonly EntityMerge[]): ItemGraph {
  if (merges.length === 0) return graph;
  const next = new Map(merges.map((m) => [m.from, m.into]));
  const final = (id: string): string => {
    let cur = id;
    for (let i = 0; i < merges.length && next.has(cur); i += 1) cur = next.get(cur) ?? cur;
    return cur;
  };
  const entities = new Map<string, GraphEntity>();
  for (const e of graph.entities.values()) if (!next.has(e.entity_id)) entities.set(e.entity_id, e);
  const entityOf = (e: GraphEntity): GraphEntity => entities.get(final(e.entity_id)) ?? { ...e, entity_id: final(e.entity_id) };
  for (const e of graph.entities.values()) if (!entities.has(final(e.entity_id))) entities.set(final(e.entity_id), entityOf(e));
  return {
    entities,
    mentions: [...new Map(graph.mentions.map((m) => [`${m.chunkId}\u0000${final(m.entityId)}`, { chunkId: m.chunkId, entityId: final(m.entityId) }])).values()],
    triplets: graph.triplets.map(({ kind, triplet }) => ({
      kind,
      triplet: { ...triplet, source: entityOf(triplet.source), target: entityOf(triplet.target) },
    })),
  };
}
