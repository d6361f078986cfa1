import type { FileFormat } from "./detect-format.js";
import type { ParsedDocument } from "./parsed-document.js";

/** What the parser pool sends a parser worker: one file. */
export interface ParseRequest {
  readonly id: number;
  readonly format: FileFormat;
  readonly bytes: Uint8Array;
  readonly fileName: string;
}

/**
 * A parser worker's messages about one request: `started` when it takes the file (its modules are
 * loaded by then, so the memory it holds from there on is the file's), then the document, or why
 * the parser refused the file.
 */
export type ParseReply =
  | { readonly id: number; readonly started: true }
  | { readonly id: number; readonly ok: true; readonly document: ParsedDocument }
  | { readonly id: number; readonly ok: false; readonly message: string };

export interface ParserWorkerData {
  /** Nice value of the thread (Linux; see lowerThreadPriority): parsing is indexing work. */
  readonly nice: number;
}
