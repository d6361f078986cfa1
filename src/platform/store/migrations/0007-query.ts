import type { Migration } from "./migration.js";

/**
 * Query support: items of a collection in time order, so a hit's neighbouring items (the turns
 * before and after a conversation turn) are one index probe away.
 */
const statements = [`CREATE INDEX context_items_timeline ON context_items(database_id, corpus, collection, item_timestamp, source_id)`];

export const migration0007: Migration = {
  version: 7,
  name: "query: item timeline index",
  sqlite: statements,
  postgres: statements,
};
