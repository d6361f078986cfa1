// Watches queued items through GET /context/status until each is terminal (completed, or
// errored / failed with the item's code and message) or the deadline passes; items still
// indexing then stay `queued` and the summary reports them as not finished.
import type { ApiClient } from "../../client/api-client.js";
import type { IngestProgress } from "./ingest-progress.js";
import type { IngestRecord } from "./ingest-upload.js";

/** Ids per status request, so the query string stays short. */
const IDS_PER_CALL = 50;
const POLL_MS = 300;

const DONE = new Set(["completed", "success"]);
const BROKEN = new Set(["errored", "failed"]);

export class IndexingWatch {
  /** By type and id; one id can stand for several records (the same id twice in a JSONL file). */
  private readonly waiting = new Map<string, IngestRecord[]>();
  private uploadsDone = false;

  constructor(
    private readonly api: ApiClient,
    private readonly scope: { database: string; collection?: string },
    private readonly progress: IngestProgress,
  ) {}

  add(records: IngestRecord[]): void {
    for (const r of records) {
      if (r.id === null) continue;
      const key = `${r.type}|${r.id}`;
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), r]);
    }
  }

  finishUploads(): void {
    this.uploadsDone = true;
  }

  /** Polls until uploads are done and nothing is waiting, or until `deadline` (epoch ms). */
  async run(deadline: number): Promise<void> {
    while (!this.uploadsDone || this.waiting.size > 0) {
      if (Date.now() > deadline) return;
      await this.pollOnce();
      if (!this.uploadsDone || this.waiting.size > 0) await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async pollOnce(): Promise<void> {
    for (const type of ["knowledge", "memory"] as const) {
      const ids = [...this.waiting.keys()].filter((k) => k.startsWith(`${type}|`)).map((k) => k.slice(type.length + 1));
      for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
        const query = { ...this.scope, type, ids: ids.slice(start, start + IDS_PER_CALL) };
        const data = await this.api.call(this.api.raw.GET("/context/status", { params: { query } }));
        for (const s of data.statuses) this.settle(type, s);
      }
    }
  }

  private settle(type: "knowledge" | "memory", s: { id: string; indexing_status: string; error_code: string; message: string }): void {
    const records = this.waiting.get(`${type}|${s.id}`);
    if (records === undefined || !(DONE.has(s.indexing_status) || BROKEN.has(s.indexing_status))) return;
    this.waiting.delete(`${type}|${s.id}`);
    for (const record of records) {
      if (DONE.has(s.indexing_status)) record.status = "completed";
      else {
        record.status = "errored";
        record.error = { code: s.error_code || "INDEXING_FAILED", message: s.message || "indexing failed" };
      }
      this.progress.indexed(1, `${record.file} -> ${record.status}${record.error ? `: ${record.error.code}: ${record.error.message}` : ""}`);
    }
  }
}
