import { readFileSync } from "node:fs";
import type { Backend, Executor } from "../../platform/store/db.js";
import { blobFilePath } from "../items/blob-store.js";
import { readPages, type PlainRow, type RowFilter } from "./portability-store.js";
import { base64Of, toPortable } from "./row-codec.js";
import type { TablePlan } from "./table-plan.js";

/** Where a store's rows and (on SQLite) its files' bytes are. */
export interface StoreLocation {
  readonly backend: Backend;
  readonly dataDir: string;
}

// A page of blobs holds whole files: a few at a time.
const BLOB_PAGE = 16;

function fileBytes(location: StoreLocation, row: PlainRow): string | null {
  if (location.backend === "postgres") return row.data instanceof Uint8Array ? base64Of(row.data) : null;
  try {
    return base64Of(readFileSync(blobFilePath(location.dataDir, String(row.database_id), String(row.id))));
  } catch (err) {
    // A row whose file is gone serves no download on the source either: it travels without bytes.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** A table's rows in portable form, page by page (files' bytes included, base64). */
export async function* portablePages(db: Executor, location: StoreLocation, plan: TablePlan, filter: RowFilter): AsyncGenerator<PlainRow[]> {
  const pageSize = plan.table === "blobs" ? BLOB_PAGE : 1000;
  for await (const page of readPages(db, plan, filter, pageSize)) {
    yield page.map((row) => (plan.table === "blobs" ? { ...toPortable("blobs", row), data: fileBytes(location, row) } : toPortable(plan.table, row)));
  }
}
