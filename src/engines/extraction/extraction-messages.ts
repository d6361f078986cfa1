import type { EntityExtraction, ExtractEntitiesContext } from "./extract-entities.js";

export interface ExtractionRequest {
  readonly jobId: number;
  readonly texts: readonly string[];
  readonly context: ExtractEntitiesContext;
}

export type ExtractionReply =
  | { readonly type: "result"; readonly jobId: number; readonly extractions: EntityExtraction[] }
  | { readonly type: "error"; readonly jobId: number; readonly message: string };

/** What an extraction worker is started with. */
export interface ExtractionWorkerData {
  /** Nice value of its thread (0: unchanged). */
  readonly nice: number;
}
