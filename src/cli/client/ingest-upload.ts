// Sends the collected sources to POST /context/ingest with bounded concurrency: one request per
// document file (multipart, streamed from disk with fs.openAsBlob), JSONL records in JSON batches.
// Every item ends up as one IngestRecord; a refused request marks all its items with the API's code.
import { openAsBlob } from "node:fs";
import { basename, isAbsolute, relative } from "node:path";
import { ApiError, type ApiClient } from "../../client/api-client.js";
import type { IngestProgress } from "./ingest-progress.js";
import type { DocumentSource, IngestSource, JsonlSource, JsonlType } from "./ingest-sources.js";

export type RecordStatus = "queued" | "duplicate" | "failed" | "completed" | "errored" | "pending";

export interface IngestRecord {
  /** The file (relative to the working folder), with `#n` for the n-th object of a JSONL file. */
  readonly file: string;
  readonly type: JsonlType;
  id: string | null;
  status: RecordStatus;
  error: { code: string; message: string } | null;
}

export interface UploadOptions {
  readonly api: ApiClient;
  readonly scope: { database: string; collection?: string };
  readonly allowDuplicates: boolean;
  readonly concurrency: number;
  readonly progress: IngestProgress;
  /** Called with the records a request queued, so indexing can be watched while uploads go on. */
  readonly onQueued: (records: IngestRecord[]) => void;
}

/** JSONL records per request: well inside the service's request budget for typical items. */
const JSONL_BATCH = 100;

interface ResultRow {
  id: string;
  status: "queued" | "failed" | "duplicate";
  error_code?: string;
  message?: string;
}

type Task = { records: IngestRecord[]; send: () => Promise<ResultRow[]> };

/** Paths under the working folder are shown relative to it, others whole. */
function display(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

function documentTask(source: DocumentSource, options: UploadOptions): Task {
  const record: IngestRecord = { file: display(source.path), type: "knowledge", id: null, status: "pending", error: null };
  const send = async (): Promise<ResultRow[]> => {
    const form = new FormData();
    const fields: Record<string, string> = { ...options.scope, type: "knowledge", allow_duplicates: String(options.allowDuplicates) };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("files", await openAsBlob(source.path), basename(source.path));
    const outcome = await options.api.call(
      options.api.raw.POST("/context/ingest", { body: { ...options.scope, type: "knowledge" }, bodySerializer: () => form }),
    );
    return outcome.results;
  };
  return { records: [record], send };
}

function jsonlTasks(source: JsonlSource, options: UploadOptions): Task[] {
  const tasks: Task[] = [];
  for (let start = 0; start < source.records.length; start += JSONL_BATCH) {
    const batch = source.records.slice(start, start + JSONL_BATCH);
    const records = batch.map((_, i): IngestRecord => ({
      file: `${display(source.path)}#${start + i + 1}`,
      type: source.type,
      id: null,
      status: "pending",
      error: null,
    }));
    const items = source.type === "memory" ? { memories: [...batch] } : { app_knowledge: [...batch] };
    const send = async (): Promise<ResultRow[]> =>
      (await options.api.call(options.api.raw.POST("/context/ingest", { body: { ...options.scope, type: source.type, ...items } }))).results;
    tasks.push({ records, send });
  }
  return tasks;
}

function settle(task: Task, rows: ResultRow[]): void {
  for (const [i, record] of task.records.entries()) {
    const row = rows[i];
    if (row === undefined) {
      record.status = "failed";
      record.error = { code: "NO_RESULT", message: "the service answered no result for this item" };
      continue;
    }
    record.id = row.id;
    record.status = row.status;
    if (row.status === "failed") record.error = { code: row.error_code ?? "FAILED", message: row.message ?? "refused" };
  }
}

function refuse(task: Task, error: unknown): void {
  // Only the service's refusals are per-item outcomes; anything else (a bug, an unreadable file) stops the command.
  if (!(error instanceof ApiError)) throw error;
  for (const record of task.records) {
    record.status = "failed";
    record.error = { code: error.code, message: error.message };
  }
}

function eventOf(task: Task): string {
  const first = task.records[0];
  if (first === undefined) return "";
  const subject = task.records.length === 1 ? first.file : `${first.file.replace(/#\d+$/, "")} (${task.records.length} items)`;
  const counts = new Map<string, number>();
  for (const r of task.records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = task.records.length === 1 ? first.status : [...counts].map(([s, n]) => `${n} ${s}`).join(", ");
  const error = task.records.length === 1 && first.error ? `: ${first.error.code}: ${first.error.message}` : "";
  return `${subject} -> ${summary}${error}`;
}

/** Uploads everything; returns one record per item, in the order of the sources. */
export async function uploadSources(sources: readonly IngestSource[], options: UploadOptions): Promise<IngestRecord[]> {
  const tasks = sources.flatMap((s) => (s.kind === "document" ? [documentTask(s, options)] : jsonlTasks(s, options)));
  options.progress.plan(tasks.reduce((n, t) => n + t.records.length, 0));
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let task = tasks[next++]; task !== undefined; task = tasks[next++]) {
      try {
        settle(task, await task.send());
      } catch (error) {
        refuse(task, error);
      }
      const queued = task.records.filter((r) => r.status === "queued");
      options.progress.queued(queued.length);
      options.progress.uploaded(task.records.length, eventOf(task));
      options.onQueued(queued);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, tasks.length) }, worker));
  return tasks.flatMap((t) => t.records);
}
