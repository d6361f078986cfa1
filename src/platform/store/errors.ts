/** Driver-neutral recognition of store failures (better-sqlite3, node-postgres, Kysely). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

// Connection loss, server shutdown, too many connections, lock contention: temporary conditions
// that a retry can fix, as opposed to bugs.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "53400",
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_CANTOPEN",
]);

/**
 * The file system's word for a disk that takes no more: full, over quota, a file past the size
 * this process may write (RLIMIT_FSIZE), mounted read-only. The store's files, stored files and
 * uploads being spooled (all in DATA_DIR) meet them.
 */
const FILE_SYSTEM_FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EROFS"]);

/**
 * Why the store cannot be written, or null when err says nothing of the kind: the disk is
 * full, the database is read-only, or its files cannot be written. SQLite: SQLITE_FULL,
 * SQLITE_READONLY*, SQLITE_IOERR*; PostgreSQL: class 53 (insufficient resources: 53100
 * disk_full, ...) and 25006 read_only_sql_transaction; files in DATA_DIR: ENOSPC, EDQUOT,
 * EFBIG, EROFS (named with the call, not the path: readiness shows the reason to anyone).
 */
export function storeUnwritableReason(err: unknown): string | null {
  const e = err as { code?: unknown; message?: unknown; syscall?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (FILE_SYSTEM_FULL.has(code)) return `${code}: a file in DATA_DIR cannot be written${typeof e?.syscall === "string" ? ` (${e.syscall})` : ""}`;
  const unwritable =
    code === "SQLITE_FULL" ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_IOERR") ||
    code === "25006" ||
    (/^53[0-9A-Z]{3}$/.test(code) && code !== "53300" && code !== "53400"); // not: too many connections
  if (!unwritable) return null;
  return `${code}: ${typeof e?.message === "string" ? e.message : "the store cannot be written"}`;
}

/** Temporary store conditions (unreachable, busy, cannot be written): 503 SERVICE_UNAVAILABLE, not a bug. */
export function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (storeUnwritableReason(err) !== null) return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return (
    message.includes("driver has already been destroyed") ||
    message.includes("Cannot use a pool after calling end") ||
    message.includes("Connection terminated") ||
    // node-postgres, on a client whose connection broke while it sat checked out (PostgreSQL
    // stopped or restarted between two statements of a request): no code, only this message.
    message.includes("Client has encountered a connection error and is not queryable") ||
    message.includes("timeout exceeded when trying to connect") ||
    message.includes("The database connection is not open")
  );
}

/**
 * Text the store cannot hold: PostgreSQL refuses a NUL character (22021) or a character its
 * encoding lacks (22P05) anywhere in a statement's text parameters, lookups included. The
 * request's input is at fault, so it answers 400, never 500.
 */
export function isUnstorableText(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return e?.code === "22021" || e?.code === "22P05";
}
