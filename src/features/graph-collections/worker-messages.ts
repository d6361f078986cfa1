import type { IndexDefinition } from "../../engines/cypher/index.js";
import type { ChangeRows, CollectionHead, NodeRow, RelationshipRow } from "./rows.js";

/** The engine's budgets for one run, from configuration. */
export interface EngineLimits {
  readonly maxRows: number;
  readonly timeoutMs: number;
  readonly maxListLength: number;
  readonly maxStringLength: number;
  readonly maxRegexWork: number;
}

/**
 * Main thread -> query worker. A worker serves one request at a time (the pool reserves it), so
 * each request with an `id` gets exactly one reply with that id before the next is sent.
 *
 * - run: a query against the cached graph of `key` at `head` (head null: a never-written
 *   collection, run against an empty graph). A read that would write answers `needs-write`
 *   untouched; a write answers `changes` and keeps them applied until `settle`.
 * - load-*: installs the stored state of `key` at `head`, page by page (pages have no reply; a
 *   failure while restoring one is reported by load-end).
 * - settle: after the main thread committed (head) or failed (null) a write's changes.
 * - forget: drops cached graphs of a collection (or of a whole database); no reply.
 */
export type WorkerRequest =
  | {
      readonly type: "run";
      readonly id: number;
      readonly key: string;
      readonly head: CollectionHead | null;
      readonly write: boolean;
      readonly query: string;
      readonly params: Readonly<Record<string, unknown>>;
      readonly limits: EngineLimits;
    }
  | { readonly type: "load-begin"; readonly id: number; readonly key: string; readonly head: CollectionHead }
  | { readonly type: "load-nodes"; readonly rows: NodeRow[] }
  | { readonly type: "load-relationships"; readonly rows: RelationshipRow[] }
  | { readonly type: "load-end"; readonly id: number; readonly indexes: IndexDefinition[] }
  | { readonly type: "settle"; readonly key: string; readonly head: CollectionHead | null }
  | { readonly type: "forget"; readonly keyPrefix: string };

/** A finished query: rows already rendered and serialised as a JSON array, so the main thread never walks them. */
export interface RenderedRows {
  readonly json: string;
  readonly rowCount: number;
  readonly truncated: boolean;
}

/** How a run failed inside the worker; the main thread maps it onto the error table. */
export type WorkerFailure =
  | { readonly kind: "timeout"; readonly message: string }
  | { readonly kind: "too-large"; readonly message: string }
  | { readonly kind: "invalid"; readonly message: string }
  | { readonly kind: "internal"; readonly message: string };

export type WorkerReply =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly id: number }
  | { readonly type: "stale"; readonly id: number }
  | { readonly type: "ahead"; readonly id: number }
  | { readonly type: "needs-write"; readonly id: number }
  | { readonly type: "result"; readonly id: number; readonly rows: RenderedRows }
  | { readonly type: "changes"; readonly id: number; readonly rows: RenderedRows; readonly changes: ChangeRows }
  | { readonly type: "failed"; readonly id: number; readonly failure: WorkerFailure };
