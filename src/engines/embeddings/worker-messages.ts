import type { BuiltUseLite, UseLitePrecision } from "./use-lite-model.js";

/** What a model worker is started with. */
export interface UseLiteWorkerData {
  /** Nice value of its thread (0: unchanged). */
  readonly nice: number;
  readonly precision: UseLitePrecision;
  /** The model another thread of the process built: loaded without building it again. */
  readonly model?: BuiltUseLite;
}

export interface WorkerRequest {
  jobId: number;
  texts: string[];
}

export type WorkerReply =
  /** `model`: what this worker built, for the process's other threads (absent when it was given one). */
  | { type: "ready"; model?: BuiltUseLite }
  | { type: "failed"; message: string }
  | { type: "result"; jobId: number; vectors: Float32Array[] }
  | { type: "error"; jobId: number; message: string };
