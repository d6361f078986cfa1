import type { Migration } from "./migration.js";

/**
 * A connector's last failure gets a code beside its text (`last_error_code`), so a client can
 * tell a provider outage from unreadable credentials or a provider that refused a cursor without
 * parsing the message. Empty when the last sync succeeded, like `last_error`.
 */
export const migration0023: Migration = {
  version: 23,
  name: "connector-error-code",
  sqlite: [`ALTER TABLE connectors ADD COLUMN last_error_code TEXT NOT NULL DEFAULT ''`],
  postgres: [`ALTER TABLE connectors ADD COLUMN last_error_code TEXT NOT NULL DEFAULT ''`],
};
