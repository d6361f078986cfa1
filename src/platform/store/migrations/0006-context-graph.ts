import type { Migration } from "./migration.js";

/**
 * The context graph built during `graph_creation`. Every row carries its database, corpus and
 * collection: knowledge and memory graphs never share a row, so they never connect.
 * - context_graph_links: item-level links an item declares (explicit relations, its parent),
 *   stored by the target's public source id so a link to an item not ingested yet resolves
 *   when it arrives; thread ties are read from context_items.thread_id instead.
 * - context_graph_triplets: entity relation triplets (chunk-level and structural), one row per
 *   (chunk, source, target) with its relations as JSON; the key is the paging cursor.
 * - context_graph_entities: entities referenced by triplets or mentions; garbage-collected.
 * - context_graph_mentions: which chunk of which item mentions which entity.
 * - context_graph_people / context_graph_aliases: the persisted alias table of entity resolution.
 */
const statements = (t: { big: string; serial: string }) => [
  `CREATE TABLE context_graph_links (
     database_id TEXT NOT NULL,
     corpus TEXT NOT NULL,
     collection TEXT NOT NULL,
     item_id TEXT NOT NULL,
     target_source_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     relation_type TEXT NOT NULL,
     created_at ${t.big} NOT NULL)`,
  `CREATE INDEX context_graph_links_item ON context_graph_links(item_id)`,
  `CREATE INDEX context_graph_links_target ON context_graph_links(database_id, corpus, collection, target_source_id)`,
  `CREATE TABLE context_graph_triplets (
     triplet_key ${t.serial},
     database_id TEXT NOT NULL,
     corpus TEXT NOT NULL,
     collection TEXT NOT NULL,
     item_id TEXT NOT NULL,
     chunk_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     source_entity_id TEXT NOT NULL,
     target_entity_id TEXT NOT NULL,
     relations TEXT NOT NULL)`,
  `CREATE INDEX context_graph_triplets_item ON context_graph_triplets(item_id, triplet_key)`,
  `CREATE INDEX context_graph_triplets_scope ON context_graph_triplets(database_id, corpus, collection, triplet_key)`,
  `CREATE INDEX context_graph_triplets_source ON context_graph_triplets(database_id, corpus, collection, source_entity_id)`,
  `CREATE INDEX context_graph_triplets_target ON context_graph_triplets(database_id, corpus, collection, target_entity_id)`,
  `CREATE INDEX context_graph_triplets_chunk ON context_graph_triplets(chunk_id)`,
  `CREATE TABLE context_graph_entities (
     database_id TEXT NOT NULL,
     corpus TEXT NOT NULL,
     collection TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     name TEXT NOT NULL,
     name_key TEXT NOT NULL,
     type TEXT NOT NULL,
     namespace TEXT NOT NULL,
     identifier TEXT,
     provider TEXT,
     PRIMARY KEY (database_id, corpus, collection, entity_id))`,
  `CREATE INDEX context_graph_entities_name ON context_graph_entities(database_id, corpus, collection, name_key)`,
  `CREATE TABLE context_graph_mentions (
     database_id TEXT NOT NULL,
     corpus TEXT NOT NULL,
     collection TEXT NOT NULL,
     item_id TEXT NOT NULL,
     chunk_id TEXT NOT NULL,
     entity_id TEXT NOT NULL)`,
  `CREATE INDEX context_graph_mentions_item ON context_graph_mentions(item_id)`,
  `CREATE INDEX context_graph_mentions_chunk ON context_graph_mentions(chunk_id)`,
  `CREATE INDEX context_graph_mentions_entity ON context_graph_mentions(database_id, corpus, collection, entity_id)`,
  `CREATE TABLE context_graph_people (
     database_id TEXT NOT NULL,
     scope TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     name TEXT NOT NULL,
     keys TEXT NOT NULL,
     PRIMARY KEY (scope, entity_id))`,
  `CREATE INDEX context_graph_people_database ON context_graph_people(database_id)`,
  `CREATE TABLE context_graph_aliases (
     database_id TEXT NOT NULL,
     scope TEXT NOT NULL,
     alias_key TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     PRIMARY KEY (scope, alias_key, entity_id))`,
  `CREATE INDEX context_graph_aliases_entity ON context_graph_aliases(scope, entity_id)`,
  `CREATE INDEX context_graph_aliases_database ON context_graph_aliases(database_id)`,
  // Thread ties and hierarchy are read from the items themselves.
  `CREATE INDEX context_items_thread ON context_items(database_id, corpus, collection, thread_id)`,
  `CREATE INDEX context_items_external ON context_items(database_id, corpus, collection, app_external_id)`,
  `CREATE INDEX context_items_parent ON context_items(database_id, corpus, collection, parent_id)`,
];

export const migration0006: Migration = {
  version: 6,
  name: "context graph: links, triplets, entities, mentions, aliases",
  sqlite: statements({ big: "INTEGER", serial: "INTEGER PRIMARY KEY AUTOINCREMENT" }),
  postgres: statements({ big: "BIGINT", serial: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY" }),
};
