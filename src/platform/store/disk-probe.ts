import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";

/** What the probe writes: a little more than a page or two of anything, so that it needs new blocks. */
const PROBE_BYTES = 64 * 1024;

/**
 * Writes, flushes and removes a file of new bytes in `dir` (made if missing): throws what a real
 * file write there would meet (ENOSPC, EDQUOT, EFBIG, EROFS). Readiness runs it, beside the store's
 * own probe, while writes are failing: uploads are spooled and (embedded store) files kept in DATA_DIR.
 */
export async function probeDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `.write-probe-${randomUUID()}`);
  try {
    const file = await open(path, "w");
    try {
      // writeFile goes on after a short write (a disk with a few bytes left takes part of one); the next fails.
      await file.writeFile(randomBytes(PROBE_BYTES));
      await file.sync();
    } finally {
      await file.close();
    }
  } finally {
    await rm(path, { force: true });
  }
}
