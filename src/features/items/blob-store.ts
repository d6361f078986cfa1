import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Executor, Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { pathOfIds } from "../../platform/util/id-paths.js";

/**
 * Where uploaded files live: in DATA_DIR on the embedded backend, in PostgreSQL itself on
 * the PostgreSQL backend (so several nodes need nothing else). The `blobs` row is the index
 * on both; the bytes sit in the row (PostgreSQL) or in a file named by the row (SQLite).
 */
/** The database a file belongs to (and its organization). */
export interface BlobOwner {
  readonly id: string;
  readonly org_id: string;
}

export interface BlobStore {
  put(tx: Executor, id: string, database: BlobOwner, bytes: Uint8Array): Promise<void>;
  get(org: OrgTenancy, id: string): Promise<Uint8Array | null>;
  /** The stored file's size in bytes, without reading it; null when there is none. */
  size(org: OrgTenancy, id: string): Promise<number | null>;
  delete(tx: Executor, org: OrgTenancy, id: string): Promise<void>;
  deleteDatabase(tx: Executor, database: BlobOwner): Promise<void>;
}

/** Where a stored file that cannot be read is reported (the server's logger). */
interface BlobLogger {
  warn(obj: object, msg: string): void;
}

async function sizeOf(store: Store, org: OrgTenancy, id: string): Promise<number | null> {
  const row = await store.db.selectFrom("blobs").select("size").where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
  return row ? Number(row.size) : null;
}

/**
 * Where the embedded backend keeps a file's bytes (export, import and migrate read and write them
 * there too): DATA_DIR/blobs/<database id>/<blob id>. Both ids must be ids this service generates
 * (pathOfIds), so a row can name no file outside the blobs folder.
 */
export const blobFilePath = (dataDir: string, databaseId: string, id: string): string => pathOfIds(join(dataDir, "blobs"), databaseId, id);

/** A database's folder of files (removed with the database). */
const blobFolder = (dataDir: string, databaseId: string): string => pathOfIds(join(dataDir, "blobs"), databaseId);

class FileBlobStore implements BlobStore {
  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly log: BlobLogger,
  ) {}

  private path(databaseId: string, id: string): string {
    return blobFilePath(this.dataDir, databaseId, id);
  }

  async put(tx: Executor, id: string, database: BlobOwner, bytes: Uint8Array): Promise<void> {
    mkdirSync(blobFolder(this.dataDir, database.id), { recursive: true });
    writeFileSync(this.path(database.id, id), bytes);
    await tx
      .insertInto("blobs")
      .values({ id, org_id: database.org_id, database_id: database.id, size: bytes.byteLength, data: null, created_at: Date.now() })
      .execute();
  }

  async get(org: OrgTenancy, id: string): Promise<Uint8Array | null> {
    const row = await this.store.db.selectFrom("blobs").select("database_id").where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    try {
      return readFileSync(this.path(row.database_id, id));
    } catch (err) {
      // The row says the file exists: a missing or unreadable file is damage worth a log line.
      this.log.warn({ err, blobId: id, databaseId: row.database_id }, "a stored file could not be read; answered as not found");
      return null;
    }
  }

  size(org: OrgTenancy, id: string): Promise<number | null> {
    return sizeOf(this.store, org, id);
  }

  async delete(tx: Executor, org: OrgTenancy, id: string): Promise<void> {
    const row = await tx.selectFrom("blobs").select("database_id").where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
    await tx.deleteFrom("blobs").where("org_id", "=", org.orgId).where("id", "=", id).execute();
    if (row) rmSync(this.path(row.database_id, id), { force: true });
  }

  async deleteDatabase(tx: Executor, database: BlobOwner): Promise<void> {
    await tx.deleteFrom("blobs").where("org_id", "=", database.org_id).where("database_id", "=", database.id).execute();
    rmSync(blobFolder(this.dataDir, database.id), { recursive: true, force: true });
  }
}

class RowBlobStore implements BlobStore {
  constructor(private readonly store: Store) {}

  async put(tx: Executor, id: string, database: BlobOwner, bytes: Uint8Array): Promise<void> {
    await tx
      .insertInto("blobs")
      .values({ id, org_id: database.org_id, database_id: database.id, size: bytes.byteLength, data: bytes, created_at: Date.now() })
      .execute();
  }

  async get(org: OrgTenancy, id: string): Promise<Uint8Array | null> {
    const row = await this.store.db.selectFrom("blobs").select("data").where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
    return row?.data ?? null;
  }

  size(org: OrgTenancy, id: string): Promise<number | null> {
    return sizeOf(this.store, org, id);
  }

  async delete(tx: Executor, org: OrgTenancy, id: string): Promise<void> {
    await tx.deleteFrom("blobs").where("org_id", "=", org.orgId).where("id", "=", id).execute();
  }

  async deleteDatabase(tx: Executor, database: BlobOwner): Promise<void> {
    await tx.deleteFrom("blobs").where("org_id", "=", database.org_id).where("database_id", "=", database.id).execute();
  }
}

export function createBlobStore(store: Store, dataDir: string, log: BlobLogger): BlobStore {
  return store.backend === "postgres" ? new RowBlobStore(store) : new FileBlobStore(store, dataDir, log);
}
