import type { Migration } from "./migration.js";

/**
 * A query's graph context reads the first triplets (key order) of each entity it names, as source
 * and as target, and stops at its limit (graph-read-store.ts). That needs each entity's entries in
 * key order in its index. SQLite's already are: every index ends with the rowid, and
 * `triplet_key` is the rowid. PostgreSQL orders equal keys by their place in the heap, so there the
 * key becomes the indexes' last column (the new indexes serve every lookup the old ones did).
 */
export const migration0021: Migration = {
  version: 21,
  name: "entity-triplets-in-key-order",
  sqlite: [],
  postgres: [
    `CREATE INDEX context_graph_triplets_source_key ON context_graph_triplets(database_id, corpus, collection, source_entity_id, triplet_key)`,
    `CREATE INDEX context_graph_triplets_target_key ON context_graph_triplets(database_id, corpus, collection, target_entity_id, triplet_key)`,
    `DROP INDEX IF EXISTS context_graph_triplets_source`,
    `DROP INDEX IF EXISTS context_graph_triplets_target`,
  ],
};
