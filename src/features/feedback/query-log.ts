import type { Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { QueryLogStore, type QueryLogRow } from "./query-log-store.js";
import { inSystemScope } from "../../platform/store/row-scope.js";

export interface LoggedQuery {
  readonly orgId: string;
  /** The query's `meta.request_id` (also its X-Request-ID header). */
  readonly requestId: string;
  readonly database?: string | null;
  readonly collection?: string | null;
}

export interface QueryLogOptions {
  /** Entries waiting at most; past it the oldest are dropped (with a warning). */
  readonly maxPending: number;
  /** How long entries gather before a flush (one multi-row insert). */
  readonly flushDelayMs: number;
  /** Wait before retrying a flush the store refused. */
  readonly retryDelayMs: number;
  /**
   * Other processes write to the same store (PROCESSES above 1, or PostgreSQL): an id found
   * nowhere may be a query another process answered and has not flushed yet, so `find` looks
   * again for up to this long (0: a miss is final, as it is for the only process of a store).
   */
  readonly peerFlushWaitMs: number;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

const DEFAULTS: QueryLogOptions = { maxPending: 10_000, flushDelayMs: 50, retryDelayMs: 1_000, peerFlushWaitMs: 0 };

/** Between two looks for an entry another process may still be flushing. */
const PEER_POLL_MS = 100;

/**
 * The queries each organization made, so feedback can only refer to a real query of the
 * same organization. A query never writes to answer: `record` buffers the entry and a
 * background flush inserts what has gathered; a failed flush is logged and retried, never
 * returned to the query. `find` sees entries still waiting too. Another process sees an
 * entry once it is flushed (within about flushDelayMs while the store can be written), and
 * `find` waits that long for it (peerFlushWaitMs).
 */
export class QueryLog {
  private pending: QueryLogRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private dropped = 0;
  private readonly options: QueryLogOptions;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    options: Partial<QueryLogOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Buffers one answered query; returns at once. */
  record(entry: LoggedQuery): void {
    this.pending.push({
      org_id: entry.orgId,
      // UUIDs compare case-insensitively; feedback looks them up lowercased.
      request_id: entry.requestId.toLowerCase(),
      database_name: entry.database ?? null,
      collection: entry.collection ?? null,
      created_at: this.now(),
    });
    const excess = this.pending.length - this.options.maxPending;
    if (excess > 0) {
      this.pending.splice(0, excess);
      this.dropped += excess;
    }
    this.schedule(this.options.flushDelayMs);
  }

  async find(org: OrgTenancy, requestId: string): Promise<QueryLogRow | undefined> {
    const { orgId } = org;
    const id = requestId.toLowerCase();
    const waiting = this.pending.find((p) => p.org_id === orgId && p.request_id === id);
    if (waiting) return waiting;
    await this.flushing; // an entry being inserted right now
    const inMemory = this.pending.find((p) => p.org_id === orgId && p.request_id === id);
    if (inMemory) return inMemory; // its flush failed and put it back
    const stored = new QueryLogStore(this.store.db);
    for (let waited = 0; ; waited += PEER_POLL_MS) {
      const found = await stored.find(org, id);
      if (found || waited >= this.options.peerFlushWaitMs) return found;
      await new Promise((resolve) => setTimeout(resolve, PEER_POLL_MS));
    }
  }

  /** Writes what is waiting now (shutdown, tests); failures are logged, the entries kept for a retry. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    // A batch holds several organizations' entries: system scope, whoever triggered the flush.
    this.flushing = inSystemScope(() => this.write()).finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Entries not yet written. */
  get waiting(): number {
    return this.pending.length;
  }

  private schedule(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      await new QueryLogStore(this.store.db).insertMany(batch);
    } catch (err) {
      // Back in front of newer entries, within the bound; tried again later.
      this.pending = [...batch, ...this.pending].slice(-this.options.maxPending);
      this.logger.warn({ err, waiting: this.pending.length }, "writing the query log failed; retrying");
      this.schedule(this.options.retryDelayMs);
    }
    if (this.dropped > 0) {
      this.logger.warn({ dropped: this.dropped }, "query log entries dropped: too many waiting for the store");
      this.dropped = 0;
    }
  }
}
