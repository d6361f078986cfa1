/** The worker's `workerData`. */
export interface WorkerSetup {
  /** Batch workers run below normal priority, so request handling and query embeddings get the CPU first. */
  lowPriority: boolean;
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
