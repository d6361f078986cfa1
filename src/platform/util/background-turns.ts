/**
 * Turns for background work on the request thread (the ingestion pipeline's steps): one waiting
 * step is let go per pass of the event loop. Steps that all yielded with `setImmediate` ran
 * together in the same pass, tens of milliseconds in a row under ingestion at full speed, while
 * a query whose embedding had come back waited for the pass to end; released one per pass, a
 * query waits for at most one step (bench:query --during-ingest: fast hybrid p95 20.5 ms busy
 * against 8.0 idle before, 16-17 ms after).
 */
export class BackgroundTurns {
  private waiting: Array<() => void> = [];
  private pumping = false;

  /** Resolves when this step's turn comes: after one pass of the event loop at least. */
  readonly turn = (): Promise<void> =>
    new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.pumping) {
        this.pumping = true;
        setImmediate(this.pump);
      }
    });

  private readonly pump = (): void => {
    this.waiting.shift()?.();
    if (this.waiting.length > 0) setImmediate(this.pump);
    else this.pumping = false;
  };
}
