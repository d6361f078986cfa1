import { inSystemScope } from "../store/row-scope.js";
import { yieldToEventLoop } from "./yield-to-event-loop.js";

interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Group commit: calls that arrive while a flush is running (or in the same event-loop turn)
 * are gathered and handed to the next flush as one batch, so many concurrent small writes cost
 * a few statements instead of a few each. `flush` returns one output per input, in order.
 * When a batch of several fails, each input is flushed again on its own, so one bad input
 * fails only its own caller. A batch may serve callers of several organizations: flushes run
 * in system scope, whichever caller happened to start the drain.
 */
export class Coalescer<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private draining = false;

  constructor(
    private readonly flush: (inputs: readonly I[]) => Promise<readonly O[]>,
    private readonly maxBatch = 64,
    /** Taken before each flush: one pass of the event loop, or a turn of BackgroundTurns. */
    private readonly turn: () => Promise<void> = yieldToEventLoop,
  ) {
    if (!(Number.isInteger(maxBatch) && maxBatch >= 1)) throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.draining) void inSystemScope(() => this.drain());
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        await this.turn();
        const batch = this.waiting.splice(0, this.maxBatch);
        await this.run(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async run(batch: ReadonlyArray<Waiting<I, O>>): Promise<void> {
    try {
      const outputs = await this.flush(batch.map((w) => w.input));
      if (outputs.length !== batch.length) throw new Error(`flush returned ${outputs.length} outputs for ${batch.length} inputs`);
      batch.forEach((w, i) => w.resolve(outputs[i] as O));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      for (const w of batch) await this.run([w]);
    }
  }
}
