/**
 * Background priority for one job lane: while the foreground is busy (this process is making
 * items searchable), the lane runs one job at a time and rests after each one long enough that
 * its share of the time stays at `share`; when the foreground is idle it runs at full
 * concurrency. Work is only delayed, never starved: under a constant foreground the lane still
 * gets its share.
 */
export class BackgroundGate {
  private resumeAt = 0;

  constructor(
    private readonly foregroundBusy: () => boolean,
    private readonly share: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  }

  /** How many of `free` slots may be filled now, with `running` jobs of this lane running. */
  admit(free: number, running: number): number {
    if (!this.foregroundBusy()) return free;
    if (running > 0 || this.now() < this.resumeAt) return 0;
    return Math.min(free, 1);
  }

  /** Records a finished job of `ms`; a job that ran beside a busy foreground earns a rest. */
  finished(ms: number): void {
    if (this.foregroundBusy()) this.resumeAt = this.now() + ms * (1 / this.share - 1);
  }
}
