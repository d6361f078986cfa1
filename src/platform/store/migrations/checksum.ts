import { createHash } from "node:crypto";
import type { Migration } from "./migration.js";

/**
 * SHA-256 (hex) of a migration's statements on both backends: what was run, not how the file
 * is formatted, so reformatting or rewording a comment leaves it unchanged while any edit to a
 * statement changes it.
 */
export function migrationChecksum(m: Migration): string {
  return createHash("sha256")
    .update(JSON.stringify({ sqlite: m.sqlite, postgres: m.postgres }))
    .digest("hex");
}
