import type { Migration } from "./migration.js";

/**
 * Store-wide settings every node must agree on (for example the secret that signs file
 * download URLs when FILE_URL_SECRET is unset). Written once, insert-if-absent.
 */
const statements = (big: string): string[] => [
  `CREATE TABLE settings (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     created_at ${big} NOT NULL)`,
];

export const migration0005: Migration = {
  version: 5,
  name: "settings",
  sqlite: statements("INTEGER"),
  postgres: statements("BIGINT"),
};
