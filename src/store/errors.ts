/** Driver-neutral recognition of store failures (better-sqlite3, node-postgres, Kysely). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

// Connection loss, server shutdown, too many connections, lock contention: temporary conditions
// that a retry can fix, as opposed to bugs.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND",
  "57P01", "57P02", "57P03", "53300", "53400", "08000", "08003", "08006", "08001", "08004",
  "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN",
]);

export function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return (
    message.includes("driver has already been destroyed") ||
    message.includes("Cannot use a pool after calling end") ||
    message.includes("Connection terminated") ||
    message.includes("The database connection is not open")
  );
}
