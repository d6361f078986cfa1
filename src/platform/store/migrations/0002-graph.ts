import type { Migration } from "./migration.js";

/**
 * The graph area (bring-your-own-graph): collections with a version counter, and their nodes,
 * relationships and index definitions. Every row carries its organization and database.
 * Properties and labels are JSON text written by `graph-area/property-codec.ts`, which keeps
 * INTEGER and FLOAT apart. Node and relationship tables have no foreign keys on purpose: bulk
 * writes stay cheap and the graph service deletes them explicitly with their collection.
 */
export const migration0002: Migration = {
  version: 2,
  name: "graph",
  sqlite: [
    `CREATE TABLE graph_collections (
       id TEXT PRIMARY KEY,
       org_id TEXT NOT NULL,
       database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
       name TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL,
       UNIQUE (database_id, name))`,
    `CREATE TABLE graph_nodes (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       node_id INTEGER NOT NULL, labels TEXT NOT NULL, properties TEXT NOT NULL,
       PRIMARY KEY (collection_id, node_id)) WITHOUT ROWID`,
    `CREATE TABLE graph_relationships (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       rel_id INTEGER NOT NULL, type TEXT NOT NULL, start_node INTEGER NOT NULL, end_node INTEGER NOT NULL,
       properties TEXT NOT NULL,
       PRIMARY KEY (collection_id, rel_id)) WITHOUT ROWID`,
    `CREATE TABLE graph_indexes (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       entity TEXT NOT NULL, token TEXT NOT NULL, property TEXT NOT NULL,
       PRIMARY KEY (collection_id, entity, token, property)) WITHOUT ROWID`,
  ],
  postgres: [
    `CREATE TABLE graph_collections (
       id TEXT PRIMARY KEY,
       org_id TEXT NOT NULL,
       database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
       name TEXT NOT NULL, version BIGINT NOT NULL, created_at BIGINT NOT NULL,
       UNIQUE (database_id, name))`,
    `CREATE TABLE graph_nodes (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       node_id BIGINT NOT NULL, labels TEXT NOT NULL, properties TEXT NOT NULL,
       PRIMARY KEY (collection_id, node_id))`,
    `CREATE TABLE graph_relationships (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       rel_id BIGINT NOT NULL, type TEXT NOT NULL, start_node BIGINT NOT NULL, end_node BIGINT NOT NULL,
       properties TEXT NOT NULL,
       PRIMARY KEY (collection_id, rel_id))`,
    `CREATE TABLE graph_indexes (
       collection_id TEXT NOT NULL, org_id TEXT NOT NULL, database_id TEXT NOT NULL,
       entity TEXT NOT NULL, token TEXT NOT NULL, property TEXT NOT NULL,
       PRIMARY KEY (collection_id, entity, token, property))`,
  ],
};
