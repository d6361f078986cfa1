import { once } from "node:events";
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import * as tar from "tar";
import { AppError } from "../../platform/errors/app-error.js";
import type { Backend } from "../../platform/store/db.js";
import type { PlainRow } from "./portability-store.js";

/**
 * The archive: a gzip'd tar of `manifest.json` and one JSON-lines file per table
 * (`tables/<table>.jsonl`, one row per line). Both sides go through a temporary directory on
 * disk and stream line by line, so neither the export nor the import holds a table in memory.
 */
export const ARCHIVE_FORMAT = "context-store-archive";
export const ARCHIVE_FORMAT_VERSION = 1;

export interface Manifest {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly format_version: number;
  readonly created_at: string;
  readonly source_backend: Backend;
  /** The highest schema migration of the exporting store: rows have exactly its columns. */
  readonly schema_level: number;
  readonly database: { readonly id: string; readonly name: string; readonly org_id: string };
  /** Rows per table file, in the order the import applies them. */
  readonly counts: Readonly<Record<string, number>>;
}

const tableFile = (dir: string, table: string): string => join(dir, "tables", `${table}.jsonl`);

/** Writes the table files into a temporary directory, then packs them; `finish` renames into place. */
export class ArchiveWriter {
  private readonly dir = mkdtempSync(join(tmpdir(), "cs-export-"));
  private readonly counts: Record<string, number> = {};
  private current: { table: string; stream: WriteStream } | null = null;

  constructor(private readonly out: string) {
    mkdirSync(join(this.dir, "tables"));
  }

  async startTable(table: string): Promise<void> {
    await this.endTable();
    this.counts[table] = 0;
    this.current = { table, stream: createWriteStream(tableFile(this.dir, table)) };
  }

  async write(rows: readonly PlainRow[]): Promise<void> {
    const current = this.current;
    if (!current) throw new Error("write before startTable");
    for (const row of rows) {
      if (!current.stream.write(`${JSON.stringify(row)}\n`)) await once(current.stream, "drain");
    }
    this.counts[current.table] = (this.counts[current.table] ?? 0) + rows.length;
  }

  async finish(manifest: Omit<Manifest, "counts">): Promise<Manifest> {
    await this.endTable();
    const full: Manifest = { ...manifest, counts: { ...this.counts } };
    writeFileSync(join(this.dir, "manifest.json"), `${JSON.stringify(full, null, 2)}\n`);
    const target = resolve(this.out);
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.partial`;
    await tar.c({ gzip: true, file: partial, cwd: this.dir, portable: true }, ["manifest.json", "tables"]);
    renameSync(partial, target);
    return full;
  }

  discard(): void {
    this.current?.stream.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async endTable(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = null;
    current.stream.end();
    await once(current.stream, "finish");
  }
}

const invalid = (message: string): AppError => new AppError("INVALID_INPUT", message);

const ENTRY_NAME = /^(?:\.\/)?(?:manifest\.json|tables\/?|tables\/[a-z_]+\.jsonl)$/;
const isArchiveEntry = (path: string, type: string): boolean => (type === "File" || type === "Directory") && ENTRY_NAME.test(path);

function checkManifest(value: unknown): Manifest {
  if (value === null || typeof value !== "object") throw invalid("the archive's manifest.json is not an object");
  const m = value as Partial<Manifest>;
  if (m.format !== ARCHIVE_FORMAT) throw invalid(`not a context store archive (format ${JSON.stringify(m.format)})`);
  if (m.format_version !== ARCHIVE_FORMAT_VERSION)
    throw invalid(`archive format version ${String(m.format_version)} is not supported (this version reads ${ARCHIVE_FORMAT_VERSION})`);
  if (typeof m.schema_level !== "number" || !m.database || typeof m.database.id !== "string" || typeof m.database.name !== "string" || !m.counts)
    throw invalid("the archive's manifest.json lacks schema_level, database or counts");
  return m as Manifest;
}

/** An unpacked archive: its manifest and its table files, read as batches of rows. */
export class ArchiveReader {
  private constructor(
    private readonly dir: string,
    readonly manifest: Manifest,
  ) {}

  static async open(file: string): Promise<ArchiveReader> {
    const dir = mkdtempSync(join(tmpdir(), "cs-import-"));
    try {
      try {
        // Only the archive's own regular files: no link, device or other name is unpacked, so an
        // archive cannot point a table file at something outside the temporary directory.
        await tar.x({ file, cwd: dir, strict: true, filter: (path, entry) => "type" in entry && isArchiveEntry(path, entry.type) });
      } catch (err) {
        throw invalid(`cannot unpack ${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      } catch (err) {
        throw invalid(`the archive has no readable manifest.json (${err instanceof Error ? err.message : String(err)})`);
      }
      return new ArchiveReader(dir, checkManifest(parsed));
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The rows of one table in batches; throws when the file holds other than the manifest's count. */
  async *rows(table: string, batchSize = 500): AsyncGenerator<PlainRow[]> {
    const expected = this.manifest.counts[table] ?? 0;
    if (expected === 0) return;
    const lines = createInterface({ input: createReadStream(tableFile(this.dir, table)), crlfDelay: Infinity });
    let batch: PlainRow[] = [];
    let seen = 0;
    try {
      for await (const line of lines) {
        if (line === "") continue;
        batch.push(JSON.parse(line) as PlainRow);
        seen += 1;
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
    } catch (err) {
      throw invalid(`the archive's ${table} rows cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (batch.length > 0) yield batch;
    if (seen !== expected) throw invalid(`the archive's ${table} file holds ${seen} rows, its manifest says ${expected}`);
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
