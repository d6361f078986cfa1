import { storeUnwritableReason } from "./errors.js";

export interface WriteFailure {
  /** What the driver said, e.g. "SQLITE_FULL: database or disk is full". */
  readonly reason: string;
  /** When it was first seen (epoch ms). */
  readonly since: number;
}

/**
 * Whether the store can be written, as last seen: a statement failing because the disk is
 * full, the database is read-only or its files cannot be written marks it unwritable; a
 * successful write probe (readiness checks run one while it lasts) marks it writable again.
 */
export class WriteHealth {
  private failure: WriteFailure | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Every failing statement passes here (the store's observed dialect). */
  observe(err: unknown): void {
    const reason = storeUnwritableReason(err);
    if (reason === null) return;
    this.failure = { reason, since: this.failure?.since ?? this.now() };
  }

  recovered(): void {
    this.failure = null;
  }

  get current(): WriteFailure | null {
    return this.failure;
  }
}
