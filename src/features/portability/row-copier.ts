import { mkdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { AppError } from "../../platform/errors/app-error.js";
import type { Backend, Executor } from "../../platform/store/db.js";
import { blobFilePath } from "../items/blob-store.js";
import type { ArchiveIds } from "./archive-ids.js";
import { insertRows, type OnConflict, type PlainRow } from "./portability-store.js";
import { fromPortable } from "./row-codec.js";
import { SERIAL_KEYS } from "./table-plan.js";

/** What changes on the way in: `import` moves a database into another organization, maybe under another name. */
export interface CopyRules {
  /** Every row's org_id becomes this; null keeps the source's (migrate). */
  readonly orgId: string | null;
  /** The database's new name (import --as); null keeps it. */
  readonly databaseName: string | null;
  /** Connectors arrive without credentials: paused and marked as needing re-authentication (import). */
  readonly connectorsNeedCredentials: boolean;
  readonly now: number;
  /** The archive's ids and their new ones (import); null keeps every id (migrate). */
  readonly ids: ArchiveIds | null;
}

const REAUTH_REASON = "imported from an archive, which carries no credentials: PATCH the connector with new credentials, then resume it";

const ON_CONFLICT: Readonly<Record<string, OnConflict>> = {
  // A target that ever ran the service holds its own settings (file URL secret): the source's win.
  settings: { kind: "replace", key: ["name"], set: ["value", "created_at"] },
  // ...and its recurring jobs (reconcile, purge), which carry the same dedupe keys as the source's: one is enough.
  jobs: { kind: "skip" },
};

/**
 * Writes portable rows into a target store's transaction, table by table in plan order. Serial
 * keys (chunk_key, triplet_key) are assigned by the target in the source's order, and chunk keys
 * are mapped for the postings and vectors that follow their chunks. On SQLite a file's bytes go
 * to DATA_DIR/blobs like an upload's, never over a file that is there; `discardFiles` removes what
 * this copy created (files, then the folders it made, if empty) when the transaction fails.
 */
export class RowCopier {
  readonly counts: Record<string, number> = {};
  private readonly chunkKeys = new Map<number, number>();
  private readonly files: string[] = [];
  private readonly folders: string[] = [];

  constructor(
    private readonly backend: Backend,
    private readonly dataDir: string,
    private readonly rules: CopyRules,
  ) {}

  async copy(tx: Executor, table: string, portable: readonly PlainRow[]): Promise<void> {
    if (portable.length === 0) return;
    const rows = portable.map((row) => this.stored(table, this.remapped(table, row)));
    const serial = SERIAL_KEYS[table];
    if (table === "context_chunks") {
      await this.insertChunks(tx, rows);
    } else {
      const insert = serial === undefined ? rows : rows.map((row) => withoutColumn(row, serial));
      await insertRows(tx, table, insert, [], ON_CONFLICT[table]);
    }
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
  }

  /** Removes the files and folders this copy created for blobs (the transaction that indexed them failed). */
  discardFiles(): void {
    for (const file of this.files) rmSync(file, { force: true });
    for (const folder of this.folders.reverse()) {
      try {
        rmdirSync(folder);
      } catch (err) {
        // Not empty (something else was put there meanwhile) or gone: left as it is.
        if (!["ENOTEMPTY", "ENOENT", "EEXIST"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
      }
    }
  }

  private async insertChunks(tx: Executor, rows: readonly PlainRow[]): Promise<void> {
    const oldKeys = new Map(rows.map((row) => [String(row.chunk_uuid), Number(row.chunk_key)]));
    const inserted = await insertRows(
      tx,
      "context_chunks",
      rows.map((row) => withoutColumn(row, "chunk_key")),
      ["chunk_key", "chunk_uuid"],
    );
    for (const row of inserted) {
      const old = oldKeys.get(String(row.chunk_uuid));
      if (old !== undefined) this.chunkKeys.set(old, Number(row.chunk_key));
    }
  }

  private newChunkKey(old: unknown): number {
    const key = this.chunkKeys.get(Number(old));
    if (key === undefined)
      throw new AppError("INVALID_INPUT", `a vector refers to chunk key ${String(old)}, which the source does not hold: nothing was copied`);
    return key;
  }

  private remapped(table: string, source: PlainRow): PlainRow {
    const row: PlainRow = this.rules.ids ? this.rules.ids.rewrite(table, source) : { ...source };
    if (this.rules.orgId !== null && "org_id" in row) row.org_id = this.rules.orgId;
    if (table === "context_vectors") row.chunk_key = this.newChunkKey(row.chunk_key);
    if (this.rules.databaseName !== null) {
      if (table === "databases") row.name = this.rules.databaseName;
      if (table === "connectors") row.database_name = this.rules.databaseName;
    }
    if (this.rules.connectorsNeedCredentials) {
      if (table === "connectors") Object.assign(row, this.withoutCredentials());
      // The in-flight page state belongs to a run that will not continue; the committed cursor stays.
      if (table === "connector_resources") row.checkpoint = null;
    }
    return row;
  }

  private withoutCredentials(): PlainRow {
    const at = this.rules.now;
    return {
      credentials: "",
      needs_reauth: 1,
      needs_reauth_at: at,
      needs_reauth_reason: REAUTH_REASON,
      paused: 1,
      paused_at: at,
      sync_state: "idle",
      run_id: null,
      run_reconcile: 0,
      sync_heartbeat_at: null,
      next_sync_at: null,
    };
  }

  private stored(table: string, row: PlainRow): PlainRow {
    const stored = fromPortable(table, row, this.backend);
    if (table === "blobs" && this.backend === "sqlite" && typeof row.data === "string") {
      const file = blobFilePath(this.dataDir, String(row.database_id), String(row.id));
      const made = mkdirSync(dirname(file), { recursive: true });
      if (made !== undefined) this.folders.push(made, ...(made === dirname(file) ? [] : [dirname(file)]));
      // "wx": a file already at this path is someone's; the copy fails instead of replacing it.
      writeFileSync(file, Buffer.from(row.data, "base64"), { flag: "wx" });
      this.files.push(file);
    }
    return stored;
  }
}

function withoutColumn(row: PlainRow, column: string): PlainRow {
  const copy = { ...row };
  delete copy[column];
  return copy;
}
