import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { eventually, startTestApp } from "../helpers/harness.js";
import { ingestMultipart } from "../helpers/ingest.js";
import { createTestDb } from "../helpers/test-db.js";

test("spool folders left by a process killed mid-upload are removed at start; one still being written and other folders stay; a served request removes its own", async () => {
  const db = await createTestDb({ migrated: true });
  const spool = join(db.dataDir, "tmp", "uploads");
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  // Left by a process killed mid-upload two hours ago: the folder and its part untouched since.
  const stale = join(spool, "upload-killed");
  mkdirSync(stale, { recursive: true });
  writeFileSync(join(stale, "part-0"), Buffer.alloc(4096, 1));
  utimesSync(join(stale, "part-0"), twoHoursAgo, twoHoursAgo);
  utimesSync(stale, twoHoursAgo, twoHoursAgo);
  // An old folder whose part is still being written (another process on this DATA_DIR).
  const receiving = join(spool, "upload-receiving");
  mkdirSync(receiving);
  writeFileSync(join(receiving, "part-0"), "still arriving");
  utimesSync(receiving, twoHoursAgo, twoHoursAgo);
  // Not a spool folder of ours.
  const other = join(spool, "keep-me");
  mkdirSync(other);
  utimesSync(other, twoHoursAgo, twoHoursAgo);

  const t = await startTestApp({}, db);
  try {
    await eventually(async () => (existsSync(stale) ? null : true), 30_000, 50);
    assert.ok(existsSync(receiving), "a folder with a recently written part stays");
    assert.ok(existsSync(other), "only upload-* folders are swept");

    // A served upload removes its own folder, whatever the outcome.
    const res = await ingestMultipart(t, { type: "knowledge", database: "no-such-db" }, [{ name: "a.md", content: "# A\n\ntext" }]);
    assert.notEqual(res.status, 202, res.text);
    await eventually(
      async () => {
        const left = readdirSync(spool)
          .filter((n) => n.startsWith("upload-"))
          .sort();
        return left.length === 1 && left[0] === "upload-receiving" ? left : null;
      },
      10_000,
      50,
    );
  } finally {
    await t.close();
    await db.drop();
  }
});
