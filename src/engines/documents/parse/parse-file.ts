import { checkArchive, type ArchiveLimits } from "./archive-limits.js";
import { detectFormat } from "./detect-format.js";
import { parseByFormat } from "./parse-by-format.js";
import { parseFailure } from "./parsed-document.js";
import type { ParsedDocument, ParseResult } from "./parsed-document.js";
import { ParseMemoryError, ParserPoolClosed, type IsolatedParser } from "./parser-pool.js";
import { ParseTimeoutError, withTimeout } from "./with-timeout.js";

export interface ParseOptions {
  /** Upper bound for one file's parse; default 30 s. */
  timeoutMs?: number;
  /** Files above this size fail with FILE_TOO_LARGE; default 100 MiB. */
  maxBytes?: number;
  /** Zip-based formats (DOCX): inflated size and ratio limits, checked before the archive is opened. */
  archive?: ArchiveLimits;
  /**
   * Where the parser runs: a ParserPool bounds a file's time and memory from outside its thread.
   * Without one it runs on the caller's thread, where only a parser that yields can be timed out.
   */
  isolate?: IsolatedParser;
}

const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxUncompressedBytes: 128 * 1024 * 1024, maxCompressionRatio: 100 };

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}

/**
 * Parses one uploaded file. Unsupported types fail with INVALID_FILE_FORMAT, files of a supported
 * type that cannot be read (corrupt, truncated, encrypted, empty, too slow, too large to hold) with
 * PROCESSING_FAILED. Throws only ParserPoolClosed: the process is shutting down, which says nothing about the file.
 */
export async function parseFile(bytes: Uint8Array, fileName: string, mime?: string, options: ParseOptions = {}): Promise<ParseResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > maxBytes) {
    return parseFailure("FILE_TOO_LARGE", `${fileName}: ${bytes.byteLength} bytes exceeds the limit of ${maxBytes}`);
  }
  const detection = detectFormat(bytes, fileName, mime);
  if (!detection.ok) {
    return parseFailure(detection.reason === "mismatch" ? "PROCESSING_FAILED" : "INVALID_FILE_FORMAT", detection.message);
  }
  if (detection.format === "docx") {
    const archive = checkArchive(bytes, options.archive ?? DEFAULT_ARCHIVE_LIMITS);
    if (!archive.ok) return parseFailure(archive.code, `${fileName}: ${archive.message}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let document: ParsedDocument;
  try {
    document = options.isolate
      ? await options.isolate.parse(detection.format, bytes, fileName, timeoutMs)
      : await withTimeout(parseByFormat(detection.format, bytes, fileName), timeoutMs, `parsing ${fileName}`);
  } catch (error) {
    if (error instanceof ParserPoolClosed) throw error;
    const bounded = error instanceof ParseTimeoutError || error instanceof ParseMemoryError;
    const reason = bounded ? error.message : `could not read ${detection.format.toUpperCase()}: ${describe(error)}`;
    return parseFailure("PROCESSING_FAILED", `${fileName}: ${reason}`);
  }
  if (document.blocks.length === 0) {
    const hint = detection.format === "pdf" ? " (scanned PDFs need OCR, which is not supported)" : "";
    return parseFailure("PROCESSING_FAILED", `${fileName}: no extractable text${hint}`);
  }
  return { ok: true, document };
}
