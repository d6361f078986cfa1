import { createWriteStream, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { Transform, Writable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import type {} from "@fastify/multipart";
import { AppError, invalidInput } from "../../platform/errors/app-error.js";
import { storeUnwritableReason } from "../../platform/store/errors.js";
import { labelProblem, normalizeName } from "../../platform/util/identifiers.js";
import type { ArchiveLimits } from "../../engines/documents/parse/index.js";
import type { UploadedFile } from "./ingest-input.js";

export interface UploadLimits {
  /** One file part (400 FILE_TOO_LARGE beyond, the spec's code for one file). */
  readonly maxFileBytes: number;
  /** All parts of the request together, files and text fields (413 PAYLOAD_TOO_LARGE beyond). */
  readonly maxRequestBytes: number;
  /** File parts per request (413 PAYLOAD_TOO_LARGE beyond). */
  readonly maxFiles: number;
  /** Where file parts are spooled while the request is served; a fresh folder per request inside it. */
  readonly spoolDir: string;
  /** Zip-based files (DOCX) past these are refused per file at once, before they are stored. */
  readonly archive: ArchiveLimits;
}

export interface MultipartBody {
  fields: Record<string, unknown>;
  files: UploadedFile[];
  /** Removes the spooled files; call once the request is served, whatever its outcome. */
  dispose(): Promise<void>;
}

const FILE_PARTS = new Set(["files", "documents", "file", "document"]);
const MAX_TEXT_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024 * 1024;

/** A file part kept on disk: its bytes are read when asked for, so a request never holds them all. */
class SpooledFile implements UploadedFile {
  constructor(
    readonly name: string,
    readonly mime: string | undefined,
    readonly path: string,
    readonly size: number,
  ) {}

  get bytes(): Uint8Array {
    return readFileSync(this.path);
  }
}

const overBudget = (limits: UploadLimits): AppError =>
  new AppError("PAYLOAD_TOO_LARGE", `the upload exceeds ${limits.maxRequestBytes} bytes in total (MAX_REQUEST_UPLOAD_BYTES); nothing was stored`);

const tooManyFields = (): AppError => new AppError("PAYLOAD_TOO_LARGE", `at most ${MAX_TEXT_FIELDS} text fields per request; nothing was stored`);

/** Counts bytes through a stream and fails it once the request's budget is spent. */
class BudgetMeter extends Transform {
  constructor(
    private readonly budget: { remaining: number },
    private readonly limits: UploadLimits,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.budget.remaining -= chunk.byteLength;
    if (this.budget.remaining < 0) done(overBudget(this.limits));
    else done(null, chunk);
  }
}

/** The multipart library's limit errors, as our codes. */
function limitError(err: unknown, limits: UploadLimits): AppError | null {
  switch ((err as { code?: string }).code) {
    case "FST_FILES_LIMIT":
      return new AppError("PAYLOAD_TOO_LARGE", `at most ${limits.maxFiles} files per request (MAX_UPLOAD_FILES); nothing was stored`);
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return tooManyFields();
    case "FST_REQ_FILE_TOO_LARGE":
      return new AppError("FILE_TOO_LARGE", `a file is larger than ${limits.maxFileBytes} bytes (MAX_UPLOAD_BYTES)`);
    default:
      return null;
  }
}

/**
 * A file part's name as stored and shown (NFC, util/identifiers.ts): refused (400, nothing stored)
 * when it holds a control character (NUL included) or anything invisible; "upload" when it has none.
 */
function fileNameOf(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "upload";
  const name = normalizeName(raw);
  const problem = labelProblem(name);
  if (problem) throw invalidInput(`file name ${JSON.stringify(name.slice(0, 80))} ${problem}`);
  return name;
}

async function readParts(req: FastifyRequest, limits: UploadLimits, dir: string, body: MultipartBody): Promise<void> {
  const budget = { remaining: limits.maxRequestBytes };
  const parts = req.parts({
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: MAX_TEXT_FIELDS, fieldSize: Math.min(MAX_FIELD_BYTES, limits.maxRequestBytes) },
  });
  for await (const part of parts) {
    if (part.type === "file") {
      if (!FILE_PARTS.has(part.fieldname)) throw invalidInput(`unexpected file part '${part.fieldname}'; send files as 'files'`);
      const name = fileNameOf(part.filename);
      const path = join(dir, String(body.files.length));
      const before = budget.remaining;
      const meter = new BudgetMeter(budget, limits);
      await pipeline(part.file, meter, createWriteStream(path));
      if (part.file.truncated) throw new AppError("FILE_TOO_LARGE", `'${name}' is larger than ${limits.maxFileBytes} bytes (MAX_UPLOAD_BYTES)`);
      body.files.push(new SpooledFile(name, part.mimetype || undefined, path, before - budget.remaining));
    } else {
      if (part.valueTruncated) throw overBudget(limits);
      const value: unknown = part.value;
      budget.remaining -= typeof value === "string" ? Buffer.byteLength(value) : 0;
      if (budget.remaining < 0) throw overBudget(limits);
      body.fields[part.fieldname] = value;
    }
  }
}

const FORM_TYPE = "application/x-www-form-urlencoded";

/** A form body (application/x-www-form-urlencoded): text fields only, as a multipart body without files. */
export function isFormBody(req: FastifyRequest): boolean {
  const type = req.headers["content-type"];
  return typeof type === "string" && type.split(";")[0]!.trim().toLowerCase() === FORM_TYPE;
}

/**
 * Reads a form body under the multipart body's limits: the request's byte budget
 * (MAX_REQUEST_UPLOAD_BYTES, 413 beyond), at most MAX_TEXT_FIELDS fields, each within the field
 * size; its fields are then decoded exactly as multipart text fields are.
 */
export async function readFormBody(req: FastifyRequest, limits: UploadLimits): Promise<MultipartBody> {
  const budget = { remaining: limits.maxRequestBytes };
  const chunks: Buffer[] = [];
  try {
    await pipeline(
      req.raw,
      new BudgetMeter(budget, limits),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidInput(`malformed form body: ${err instanceof Error ? err.message : String(err)}`);
  }
  const fields: Record<string, unknown> = {};
  const fieldSize = Math.min(MAX_FIELD_BYTES, limits.maxRequestBytes);
  let count = 0;
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) {
    if (++count > MAX_TEXT_FIELDS) throw tooManyFields();
    if (Buffer.byteLength(value) > fieldSize) throw overBudget(limits);
    // As in a multipart body, a field sent twice keeps its last value.
    fields[name] = value;
  }
  return { fields, files: [], dispose: async () => undefined };
}

/**
 * Reads a multipart body within the request's budget: file parts streamed to a per-request
 * folder on disk (never buffered whole), text fields counted against the same budget. On any
 * failure the folder is removed before the error leaves.
 */
export async function readMultipartBody(req: FastifyRequest, limits: UploadLimits): Promise<MultipartBody> {
  await mkdir(limits.spoolDir, { recursive: true });
  const dir = await mkdtemp(join(limits.spoolDir, "upload-"));
  const body: MultipartBody = { fields: {}, files: [], dispose: () => rm(dir, { recursive: true, force: true }) };
  try {
    await readParts(req, limits, dir, body);
    return body;
  } catch (err) {
    await body.dispose();
    if (err instanceof AppError) throw err;
    const limit = limitError(err, limits);
    if (limit) throw limit;
    // The spool cannot be written (disk full): the service's condition, 503 (error-handler.ts).
    if (storeUnwritableReason(err) !== null) throw err;
    // busboy's parse errors (truncated body, bad boundary) are the client's
    throw invalidInput(`malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
  }
}
