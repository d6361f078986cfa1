import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Where multipart file parts are spooled while their request is served, one folder per request. */
export const uploadSpoolDir = (dataDir: string): string => join(dataDir, "tmp", "uploads");

/** A spool folder untouched this long belongs to no live request: its process died mid-upload. */
const STALE_UPLOAD_MS = 60 * 60_000;

/** The newest modification time of a folder and the files in it (a file being written keeps moving). */
async function lastTouched(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const name of await readdir(dir)) {
    const info = await stat(join(dir, name)).catch(() => null);
    if (info !== null) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/**
 * Removes the per-request spool folders (`upload-*`) that a process killed mid-upload left behind:
 * a request removes its own folder whatever its outcome, but not when the process dies under it.
 * Only folders untouched for `staleAfterMs` go, so uploads still being received by another process
 * on the same DATA_DIR (PROCESSES above 1) are left alone. Returns the folders removed.
 */
export async function removeStaleUploads(spoolDir: string, now: number, staleAfterMs = STALE_UPLOAD_MS): Promise<string[]> {
  const names = await readdir(spoolDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith("upload-")) continue;
    const dir = join(spoolDir, name);
    const touched = await lastTouched(dir).catch(() => null);
    if (touched === null || now - touched < staleAfterMs) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
