// The request mix of bench:load: what each kind sends, through the typed API client. Each call
// resolves when its answer is in (any non-2xx or network failure rejects with the ApiError).
import { ApiError, type ApiClient } from "../src/client/api-client.js";
import type { BenchText } from "./bench-store.js";

export type Kind = "query fast" | "query thinking" | "query text" | "list" | "inspect" | "ingest memory" | "ingest file" | "feedback";

/**
 * One block of 20 requests, sent in this order and repeated: 45% queries (25% fast hybrid, 10%
 * thinking, 10% text), 20% lists, 15% inspects, 10% small ingests (a memory of 1 to 4 sentences, a
 * text file of 3 to 8 sentences: one chunk each), 10% feedback. Interleaved so every second
 * carries the whole mix. Ingestion is the mix's dearest part per request (embedding and graph
 * extraction), so its share is what a busy assistant sends: one write for every ten reads.
 */
export const MIX: readonly Kind[] = [
  "query fast",
  "list",
  "inspect",
  "query thinking",
  "ingest memory",
  "query fast",
  "list",
  "feedback",
  "query text",
  "query fast",
  "inspect",
  "list",
  "query fast",
  "ingest file",
  "query thinking",
  "inspect",
  "list",
  "feedback",
  "query text",
  "query fast",
];

/** What the mix needs besides the client: the store's size, and what earlier requests left behind. */
export class MixState {
  /** Request ids of answered queries, the targets of feedback (newest last, bounded). */
  readonly queryIds: string[] = [];
  /** Ids ingested and not yet seen indexed, with when their 202 came. */
  readonly pending = new Map<string, number>();
  private ingested = 0;

  constructor(
    readonly api: ApiClient,
    readonly text: BenchText,
    readonly knowledgeItems: number,
    readonly memoryItems: number,
    /** Distinguishes this run's ingested ids from an earlier run's on a reused store. */
    readonly runId: string,
  ) {}

  nextIngestId(kind: "memory" | "file"): string {
    this.ingested += 1;
    return `load-${this.runId}-${kind}-${this.ingested}`;
  }

  sentences(min: number, extra: number): string {
    return Array.from({ length: min + Math.floor(this.text.random() * (extra + 1)) }, () => this.text.pick(this.text.sentences)).join(" ");
  }
}

const DATABASE = "bench";

/** Sends one request of `kind`. */
export async function send(kind: Kind, state: MixState): Promise<void> {
  const { api, text } = state;
  switch (kind) {
    case "query fast":
    case "query thinking":
    case "query text": {
      const body =
        kind === "query fast"
          ? { database: DATABASE, query: text.pick(text.questions) }
          : kind === "query thinking"
            ? { database: DATABASE, query: text.pick(text.questions), mode: "thinking" as const }
            : { database: DATABASE, query: text.pick(text.questions), query_by: "text" as const };
      const { requestId } = await api.callWithRequestId(api.raw.POST("/query", { body }));
      state.queryIds.push(requestId);
      if (state.queryIds.length > 1000) state.queryIds.splice(0, 500);
      return;
    }
    case "list": {
      const memory = text.random() < 0.25;
      const pages = Math.ceil((memory ? state.memoryItems : state.knowledgeItems) / 20);
      await api.call(
        api.raw.POST("/context/list", {
          body: { database: DATABASE, type: memory ? "memory" : "knowledge", page: 1 + Math.floor(text.random() * pages), page_size: 20 },
        }),
      );
      return;
    }
    case "inspect": {
      const memory = text.random() < 0.25;
      const id = memory ? `memory-${Math.floor(text.random() * state.memoryItems)}` : `knowledge-${Math.floor(text.random() * state.knowledgeItems)}`;
      await api.call(api.raw.GET("/context/inspect", { params: { query: { database: DATABASE, id, type: memory ? "memory" : "knowledge" } } }));
      return;
    }
    case "ingest memory": {
      const id = state.nextIngestId("memory");
      const memory = { id, text: state.sentences(1, 3), infer: false };
      await checkAccepted(api.call(api.raw.POST("/context/ingest", { body: { database: DATABASE, type: "memory", memories: [memory] } })));
      state.pending.set(id, Date.now());
      return;
    }
    case "ingest file": {
      const id = state.nextIngestId("file");
      const form = new FormData();
      form.append("type", "knowledge");
      form.append("database", DATABASE);
      form.append("document_metadata", JSON.stringify([{ id }]));
      form.append("files", new Blob([`# Notes ${id}\n\n${state.sentences(3, 5)}\n`], { type: "text/plain" }), `${id}.txt`);
      await checkAccepted(api.call(api.raw.POST("/context/ingest", { body: { database: DATABASE, type: "knowledge" }, bodySerializer: () => form })));
      state.pending.set(id, Date.now());
      return;
    }
    case "feedback": {
      const requestId = state.queryIds.length > 0 ? state.queryIds[Math.floor(text.random() * state.queryIds.length)] : undefined;
      // No query answered yet (only at the very start): the slot goes to a query instead.
      if (requestId === undefined) return send("query fast", state);
      await api.call(
        api.raw.POST("/feedback", {
          body: {
            request_id: requestId,
            database: DATABASE,
            feedback: "load test: the answer was useful",
            rating: text.random() < 0.7 ? "positive" : "negative",
          },
        }),
      );
      return;
    }
  }
}

/** A 202 whose item was refused (per-item failure) is an error too. */
async function checkAccepted(pending: Promise<{ results: Array<{ id: string; status: string }> }>): Promise<void> {
  const { results } = await pending;
  const failed = results.find((r) => r.status === "failed");
  if (failed !== undefined) throw new ApiError(202, "ITEM_FAILED", `item ${failed.id} was refused`);
}
