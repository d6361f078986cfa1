// Turns the paths given to `ingest` into what is sent: document files (uploaded one per request)
// and JSONL files of app items or memories (sent in batches). Folders are walked recursively and
// globs expanded; both skip dotfiles and keep only the formats the service parses, while a file
// named explicitly is always sent, so the service's own refusal (with its code) is reported.
import { readFile, stat } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { glob, isDynamicPattern } from "tinyglobby";
import { UsageError } from "../output.js";

/** The extensions the service's parsers accept (src/engines/documents/parse/detect-format.ts). */
const DOCUMENT_EXTENSIONS = new Set([".pdf", ".docx", ".md", ".markdown", ".mdx", ".csv", ".txt", ".text"]);
const JSONL_EXTENSIONS = new Set([".jsonl", ".ndjson"]);

export type JsonlType = "knowledge" | "memory";

export interface DocumentSource {
  readonly kind: "document";
  readonly path: string;
  readonly size: number;
}

export interface JsonlSource {
  readonly kind: "jsonl";
  readonly path: string;
  readonly type: JsonlType;
  /** The file's objects, each with its line number for error messages. */
  readonly records: ReadonlyArray<Record<string, unknown>>;
}

export type IngestSource = DocumentSource | JsonlSource;

export interface CollectedSources {
  readonly sources: IngestSource[];
  /** Files a folder walk or a glob found that the service does not parse. */
  readonly skipped: string[];
}

const isJsonl = (path: string): boolean => JSONL_EXTENSIONS.has(extname(path).toLowerCase());
const isIngestible = (path: string): boolean => DOCUMENT_EXTENSIONS.has(extname(path).toLowerCase()) || isJsonl(path);

async function kindOf(path: string): Promise<"file" | "folder" | null> {
  const info = await stat(path).catch(() => null);
  if (info === null) return null;
  return info.isDirectory() ? "folder" : info.isFile() ? "file" : null;
}

/** Memories carry `text` or `user_assistant_pairs`; app items carry `content` or a rich `kind`. */
function looksLikeMemory(record: Record<string, unknown>): boolean {
  return ("text" in record || "user_assistant_pairs" in record) && !("content" in record) && !("kind" in record);
}

async function readJsonl(path: string, forced: JsonlType | null): Promise<JsonlSource> {
  const lines = (await readFile(path, "utf8")).split(/\r?\n/);
  const records: Array<Record<string, unknown>> = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${path}:${index + 1}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`${path}:${index + 1}: each line must be a JSON object`);
    records.push(value as Record<string, unknown>);
  }
  if (records.length === 0) throw new UsageError(`${path}: no JSON objects`);
  const first = records[0];
  const type = forced ?? (first !== undefined && looksLikeMemory(first) ? "memory" : "knowledge");
  return { kind: "jsonl", path, type, records };
}

async function sourceOf(path: string, forced: JsonlType | null): Promise<IngestSource> {
  if (isJsonl(path)) return readJsonl(path, forced);
  return { kind: "document", path, size: (await stat(path)).size };
}

/** Expands the arguments in order, each file once. */
export async function collectSources(args: readonly string[], jsonlType: JsonlType | null): Promise<CollectedSources> {
  const found: string[] = [];
  const skipped: string[] = [];
  const keep = (paths: string[]): void => {
    for (const path of paths.sort()) (isIngestible(path) ? found : skipped).push(path);
  };
  for (const arg of args) {
    const kind = await kindOf(arg);
    if (kind === "file") found.push(resolve(arg));
    else if (kind === "folder") keep(await glob("**/*", { cwd: arg, absolute: true, dot: false, onlyFiles: true }));
    else if (isDynamicPattern(arg)) {
      const matches = await glob(arg, { absolute: true, dot: false, onlyFiles: true });
      if (matches.length === 0) throw new UsageError(`no file matches ${arg}`);
      keep(matches);
    } else throw new UsageError(`no such file or folder: ${arg}`);
  }
  const unique = [...new Set(found)];
  if (unique.length === 0) throw new UsageError(`nothing to ingest in ${args.join(" ")} (supported: PDF, DOCX, Markdown, CSV, TXT, JSONL)`);
  return { sources: await Promise.all(unique.map((p) => sourceOf(p, jsonlType))), skipped };
}
