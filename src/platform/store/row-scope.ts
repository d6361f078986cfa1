import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whose rows a unit of work may see and write: one organization's, or every row (system work:
 * authentication, job handlers, schedulers, migrations, the CLI). On PostgreSQL the store hands
 * it to the server on the connection the work uses, where row-level security enforces it, so a
 * store query that forgets its organization condition returns nothing instead of another
 * organization's rows. On SQLite it is carried all the same (one process, no row security), so
 * code is written the same way on both.
 *
 * Work that runs in no scope at all sees no tenant row on PostgreSQL: the safe default.
 */
export type RowScope = { readonly kind: "org"; readonly orgId: string } | { readonly kind: "system" };

const SYSTEM: RowScope = Object.freeze({ kind: "system" });
const storage = new AsyncLocalStorage<RowScope>();

/** Runs fn (and everything it starts: awaits, timers, promises) in one organization's scope. */
export function inOrgScope<T>(orgId: string, fn: () => T): T {
  return storage.run({ kind: "org", orgId }, fn);
}

/**
 * Runs fn in system scope: every organization's rows. For work that is not one organization's
 * (authentication before the organization is known, a batch that serves several organizations,
 * a job whose rows name their organization) and for operators' tools.
 */
export function inSystemScope<T>(fn: () => T): T {
  return storage.run(SYSTEM, fn);
}

/**
 * Puts the rest of the calling execution, and everything it starts later, in system scope.
 * For a process's own entry point only (a test file's or a benchmark's code acting as an operator), never in
 * the service: there every unit of work states its scope with the functions above.
 */
export function enterSystemScope(): void {
  storage.enterWith(SYSTEM);
}

/** Runs fn in no scope: on PostgreSQL it sees no tenant row. Tests use it to show the default. */
export function outsideAnyScope<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The scope of the running unit of work, if any. */
export function currentRowScope(): RowScope | undefined {
  return storage.getStore();
}
