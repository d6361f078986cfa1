// Follows the items bench:load ingests until their indexing completes. Every 2 s: one
// GET /context/status for up to 100 ids not yet seen searchable, and one for up to 100 ids seen
// searchable and not yet completed (about one request per second on top of the mix). Two lists, so
// items waiting for their graph never crowd newer items out of the searchable poll.
import { ApiError } from "../src/client/api-client.js";
import { percentile } from "./bench-utils.js";
import type { MixState } from "./load-mix.js";

const SEARCHABLE = new Set(["graph_creation", "completed"]);
const BATCH = 100;

export class IndexingTracker {
  /** Seconds from the 202 to the first status poll that saw the item searchable. */
  private readonly toSearchable: number[] = [];
  /** Seconds from the 202 to the first status poll that saw the item completed (graph built). */
  private readonly toCompleted: number[] = [];
  private readonly seenSearchable = new Set<string>();
  private completed = 0;
  errored = 0;
  private pollErrors = new Map<string, number>();
  private polling = false;

  constructor(private readonly state: MixState) {}

  async poll(): Promise<void> {
    if (this.polling || this.state.pending.size === 0) return;
    this.polling = true;
    try {
      const waiting: string[] = [];
      const searchable: string[] = [];
      for (const id of this.state.pending.keys()) {
        const list = this.seenSearchable.has(id) ? searchable : waiting;
        if (list.length < BATCH) list.push(id);
        if (waiting.length >= BATCH && searchable.length >= BATCH) break;
      }
      await Promise.all([waiting, searchable].filter((ids) => ids.length > 0).map((ids) => this.check(ids)));
    } finally {
      this.polling = false;
    }
  }

  private async check(ids: string[]): Promise<void> {
    try {
      const { statuses } = await this.state.api.call(this.state.api.raw.GET("/context/status", { params: { query: { database: "bench", ids, type: "all" } } }));
      const now = Date.now();
      for (const s of statuses) {
        const accepted = this.state.pending.get(s.id);
        if (accepted === undefined) continue;
        if (SEARCHABLE.has(s.indexing_status) && !this.seenSearchable.has(s.id)) {
          this.seenSearchable.add(s.id);
          this.toSearchable.push((now - accepted) / 1000);
        }
        if (s.indexing_status === "completed" || s.indexing_status === "errored") {
          if (s.indexing_status === "errored") this.errored += 1;
          else {
            this.completed += 1;
            this.toCompleted.push((now - accepted) / 1000);
          }
          this.state.pending.delete(s.id);
          this.seenSearchable.delete(s.id);
        }
      }
    } catch (err) {
      const code = err instanceof ApiError ? `${err.status} ${err.code}` : String(err);
      this.pollErrors.set(code, (this.pollErrors.get(code) ?? 0) + 1);
    }
  }

  print(): void {
    const polls = [...this.pollErrors.entries()].map(([c, n]) => `${c} x${n}`).join(", ");
    console.log(
      `\ningested items: ${this.completed} completed, ${this.errored} errored, ${this.state.pending.size} still pending` +
        (polls ? `; status poll errors: ${polls}` : ""),
    );
    console.log(`time from 202 to searchable (2 s polls): ${summary(this.toSearchable)}`);
    console.log(`time from 202 to completed, graph built (2 s polls): ${summary(this.toCompleted)}`);
  }
}

function summary(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} s, p95 ${percentile(sorted, 0.95).toFixed(1)} s, max ${(sorted.at(-1) ?? NaN).toFixed(1)} s`;
}
