import { sql } from "kysely";
import type { Backend, Executor } from "../store/db.js";
import type { WindowCounts } from "./sliding-window.js";

/**
 * The shared failed-authentication windows (table of migration 24). One statement counts a
 * failure of an address and returns its counts, moving the window on where it has ended (the
 * previous window's count becomes the current one's when the window that just ended is the
 * previous; both restart after a longer silence), under the row's lock, so that concurrent
 * failures from every process are all counted. The time is the caller's: windows are a minute
 * long, next to which the processes' clocks agree (a row already in a later window than the
 * caller's clock says counts the failure there).
 */
export class AuthFailureStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  async count(address: string, now: number, windowMs: number): Promise<WindowCounts> {
    const start = Math.floor(now / windowMs) * windowMs;
    // SQLite compares REAL with its double parameters exactly; PostgreSQL needs the types stated.
    const num = (v: number) => (this.backend === "postgres" ? sql`${v}::float8` : sql`${v}`);
    const result = await sql<{ window_start_ms: number; previous: number; current: number }>`
      INSERT INTO auth_failure_windows AS w (address, window_start_ms, previous, current)
      VALUES (${address}, ${num(start)}, 0, 1)
      ON CONFLICT (address) DO UPDATE SET
        previous = CASE
          WHEN w.window_start_ms >= excluded.window_start_ms THEN w.previous
          WHEN w.window_start_ms = excluded.window_start_ms - ${num(windowMs)} THEN w.current
          ELSE 0 END,
        current = CASE WHEN w.window_start_ms >= excluded.window_start_ms THEN w.current + 1 ELSE 1 END,
        window_start_ms = CASE WHEN w.window_start_ms >= excluded.window_start_ms THEN w.window_start_ms ELSE excluded.window_start_ms END
      RETURNING window_start_ms, previous, current`.execute(this.db);
    const row = result.rows[0];
    if (row === undefined) throw new Error("auth failure window: no row returned");
    return { windowStart: Number(row.window_start_ms), previous: Number(row.previous), current: Number(row.current) };
  }

  /** Removes the windows of addresses silent for two windows (they count nothing any more). */
  async prune(now: number, windowMs: number): Promise<void> {
    const before = Math.floor(now / windowMs) * windowMs - windowMs;
    await sql`DELETE FROM auth_failure_windows WHERE window_start_ms < ${this.backend === "postgres" ? sql`${before}::float8` : sql`${before}`}`.execute(
      this.db,
    );
  }
}
