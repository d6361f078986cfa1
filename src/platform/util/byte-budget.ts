/**
 * A bound on the bytes held at once by concurrent tasks, given out first come, first served: a
 * task takes its weight before it loads anything and gives it back when done. A weight above the
 * whole budget takes all of it (the task then runs alone), so no task waits forever; one that
 * waits is never overtaken by later, smaller ones.
 */
export class ByteBudget {
  private held = 0;
  private readonly waiting: Array<{ readonly weight: number; readonly grant: () => void }> = [];

  constructor(readonly capacity: number) {
    if (!(Number.isFinite(capacity) && capacity > 0)) throw new RangeError(`capacity must be a positive number, got ${capacity}`);
  }

  /** Bytes given out now. */
  get inUse(): number {
    return this.held;
  }

  /** Resolves once `bytes` are free, with the function that gives them back (calling it again does nothing). */
  async take(bytes: number): Promise<() => void> {
    const weight = Math.min(Math.max(0, bytes), this.capacity);
    if (this.waiting.length === 0 && this.held + weight <= this.capacity) this.held += weight;
    else await new Promise<void>((grant) => this.waiting.push({ weight, grant }));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held -= weight;
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    for (let next = this.waiting[0]; next !== undefined && this.held + next.weight <= this.capacity; next = this.waiting[0]) {
      this.waiting.shift();
      this.held += next.weight;
      next.grant();
    }
  }
}
