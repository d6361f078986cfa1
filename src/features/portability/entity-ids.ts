import { entityIdFor, normalizeUrl, relationshipIdFor } from "../../engines/extraction/index.js";

/**
 * The context graph's entity and relationship ids are hashes of what identifies the thing, and an
 * entity's hash includes its database's id (stable-id.ts). A database imported under a new id
 * keeps its graph consistent with what it will extract later only if those ids are derived anew
 * for the new database: otherwise "Acme Corp" mentioned after the import would be a second
 * entity beside the imported one. A hash cannot be inverted, so the canonical key is found
 * among the few an entity's row allows (its name key, its identifier, a person's alias keys) by
 * hashing each with the old database's id: only a key that gives the stored id is used. An id no
 * candidate gives (a placeholder for an item, which is the item's public id, or a key this
 * version cannot rebuild) is kept as it is; it is still unique in the new database.
 */

/** A graph's resolution scope: `graph` is `<corpus>/<collection>` (graph-write-store.ts resolutionScopeOf). */
const resolution = (databaseId: string, graph: string) => ({ database: databaseId, collection: graph });

/** The canonical keys an entity row can have been hashed from (entity-resolver.ts). */
function entityKeyCandidates(row: { name_key: string; identifier: string | null }): string[] {
  const keys = ["name", "org", "place", "product"].map((prefix) => `${prefix}:${row.name_key}`);
  const id = row.identifier;
  if (id !== null && id !== "") {
    keys.push(`email:${id}`, `ticket:${id}`, `url:${id}`, `url:${normalizeUrl(id)}`);
    if (id.startsWith("@")) keys.push(`handle:${id.slice(1)}`);
    if (id.startsWith("#")) keys.push(`topic:${id.slice(1)}`);
  }
  return keys;
}

export class EntityIdMap {
  private readonly ids = new Map<string, string>();

  constructor(
    private readonly oldDatabaseId: string,
    private readonly newDatabaseId: string,
  ) {}

  /**
   * Learns an entity's new id from the keys it may be the hash of, in `graph`
   * (`<corpus>/<collection>`): a person's alias keys (context_graph_people).
   */
  learn(graph: string, oldId: string, candidates: readonly string[]): void {
    if (this.ids.has(oldId)) return;
    const before = resolution(this.oldDatabaseId, graph);
    const key = candidates.find((k) => entityIdFor(before, k) === oldId);
    if (key !== undefined) this.ids.set(oldId, entityIdFor(resolution(this.newDatabaseId, graph), key));
  }

  /** Learns an entity's new id from its row (context_graph_entities). */
  learnEntity(row: { corpus: string; collection: string; entity_id: string; name_key: string; identifier: string | null }): void {
    this.learn(`${row.corpus}/${row.collection}`, row.entity_id, entityKeyCandidates(row));
  }

  /** The entity's id in the new database. */
  map(oldId: string): string {
    return this.ids.get(oldId) ?? oldId;
  }

  /** How many entity ids were derived anew. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * A relation of a triplet (its `relations` JSON) with the new chunk and entity ids, and its
   * relationship id derived from them when the stored one is the hash of the old ones.
   */
  relation(r: Record<string, unknown>, chunkId: (old: string) => string): Record<string, unknown> {
    const text = (key: string): string | null => (typeof r[key] === "string" ? r[key] : null);
    const [chunk, source, target] = [text("chunk_id"), text("source_entity_id"), text("target_entity_id")];
    const out: Record<string, unknown> = { ...r };
    const newChunk = chunk === null ? "" : chunkId(chunk);
    const newSource = source === null ? "" : this.map(source);
    const newTarget = target === null ? "" : this.map(target);
    if (chunk !== null) out.chunk_id = newChunk;
    if (source !== null) out.source_entity_id = newSource;
    if (target !== null) out.target_entity_id = newTarget;
    const id = text("relationship_id");
    if (id !== null) {
      const predicates = [text("canonical_predicate"), text("raw_predicate")].filter((p): p is string => p !== null);
      const predicate = predicates.find((p) => relationshipIdFor(chunk ?? "", source ?? "", p, target ?? "") === id);
      if (predicate !== undefined) out.relationship_id = relationshipIdFor(newChunk, newSource, predicate, newTarget);
    }
    return out;
  }
}
