import type { Migration } from "./migration.js";

const scope = (row: "NEW" | "OLD"): string => `${row}.org_id, ${row}.database_id, ${row}.corpus, ${row}.collection`;
const matches = (row: "NEW" | "OLD"): string =>
  `org_id = ${row}.org_id AND database_id = ${row}.database_id AND corpus = ${row}.corpus AND collection = ${row}.collection`;
const increment = `INSERT INTO context_item_counts (org_id, database_id, corpus, collection, items) VALUES (${scope("NEW")}, 1)
    ON CONFLICT (org_id, database_id, corpus, collection) DO UPDATE SET items = items + 1;`;
const decrement = `UPDATE context_item_counts SET items = items - 1 WHERE ${matches("OLD")};`;

/**
 * The number of items of each scope on SQLite, kept by triggers in the transaction that changes
 * the items, so `/context/list` reads its total instead of counting the scope's index entries on
 * the request thread (10 ms a list at 100,000 items, 14% of the service's CPU under bench:load,
 * and growing with the store). Items past their `expires_at` and not yet purged are counted here
 * and subtracted by the list, from the partial index of expiring items (usually empty).
 * PostgreSQL counts in its own server process and keeps count(*): a shared counter row there
 * would serialize concurrent ingestion into one scope.
 */
export const migration0018: Migration = {
  version: 18,
  name: "item-counts-sqlite",
  sqlite: [
    `CREATE TABLE context_item_counts (
       org_id TEXT NOT NULL,
       database_id TEXT NOT NULL,
       corpus TEXT NOT NULL,
       collection TEXT NOT NULL,
       items INTEGER NOT NULL,
       PRIMARY KEY (org_id, database_id, corpus, collection)) WITHOUT ROWID`,
    `INSERT INTO context_item_counts (org_id, database_id, corpus, collection, items)
       SELECT org_id, database_id, corpus, collection, count(*) FROM context_items GROUP BY org_id, database_id, corpus, collection`,
    `CREATE TRIGGER context_item_counts_insert AFTER INSERT ON context_items BEGIN
       ${increment}
     END`,
    `CREATE TRIGGER context_item_counts_delete AFTER DELETE ON context_items BEGIN
       ${decrement}
     END`,
    `CREATE TRIGGER context_item_counts_move AFTER UPDATE OF org_id, database_id, corpus, collection ON context_items
     WHEN OLD.org_id IS NOT NEW.org_id OR OLD.database_id IS NOT NEW.database_id OR OLD.corpus IS NOT NEW.corpus OR OLD.collection IS NOT NEW.collection
     BEGIN
       ${decrement}
       ${increment}
     END`,
    `CREATE INDEX context_items_expiring ON context_items(database_id, corpus, collection, expires_at) WHERE expires_at IS NOT NULL`,
  ],
  postgres: [],
};
