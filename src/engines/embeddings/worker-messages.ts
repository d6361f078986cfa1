import type { UseLitePrecision } from "./use-lite-model.js";

/** What a model worker is started with. */
export interface UseLiteWorkerData {
  /** Nice value of its thread (0: unchanged). */
  readonly nice: number;
  readonly precision: UseLitePrecision;
}

export interface WorkerRequest {
  jobId: number;
  texts: string[];
}

export type WorkerReply =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "result"; jobId: number; vectors: Float32Array[] }
  | { type: "error"; jobId: number; message: string };
