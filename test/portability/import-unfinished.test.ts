import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as tar from "tar";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";
import { ingestApp } from "../helpers/context.js";
import { waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { openStore, type Store } from "../../src/platform/store/db.js";
import { exportDatabase } from "../../src/features/portability/export-service.js";
import { importArchive } from "../../src/features/portability/import-service.js";
import { secretBoxes } from "../../src/platform/secrets/secrets.js";

const storeOf = (db: TestDb): Store => openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 2 });

test("an import that fails midway leaves nothing; items still indexing at export are indexed on the target", { timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cs-unfinished-"));
  const sourceDb = await createTestDb();
  const targetDb = await createTestDb();
  t.after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sourceDb.drop();
    await targetDb.drop();
  });

  const first = await startTestApp({}, sourceDb);
  await createReadyDatabase(first, "kb");
  await ingestApp(first, "kb", [{ id: "done", type: "note", title: "Done", content: { text: "The lighthouse keeper logs the weather at dawn." } }]);
  const { key, orgId } = first;
  await first.close();
  // A node without workers: what it accepts stays queued, as if the export caught it mid-indexing.
  const api = await startTestApp({ WORKERS: "0" }, sourceDb);
  const late = await api.request("POST", "/context/ingest", {
    key,
    body: {
      type: "knowledge",
      database: "kb",
      app_knowledge: JSON.stringify([{ id: "late", type: "note", content: { text: "Saffron buns are baked on Lucia morning." } }]),
    },
  });
  assert.equal(late.status, 202, late.text);
  const archive = join(dir, "kb.tar.gz");
  const source = storeOf(sourceDb);
  try {
    const { manifest } = await exportDatabase(source, sourceDb.dataDir, { orgId, database: "kb", out: archive });
    assert.equal(manifest.counts.context_items, 2);
  } finally {
    await source.close();
    await api.close();
  }

  // The same archive with one table file shorter than its manifest says: found only after rows were written.
  const unpacked = join(dir, "unpacked");
  mkdirSync(unpacked);
  await tar.x({ file: archive, cwd: unpacked });
  const vectorsFile = join(unpacked, "tables", "context_vectors.jsonl");
  const lines = readFileSync(vectorsFile, "utf8").trimEnd().split("\n");
  writeFileSync(vectorsFile, `${lines.slice(0, -1).join("\n")}\n`);
  const damaged = join(dir, "damaged.tar.gz");
  await tar.c({ gzip: true, file: damaged, cwd: unpacked }, ["manifest.json", "tables"]);

  // The target's service is stopped while the operator imports (on SQLite a running one would wait for the import's write lock).
  const fresh = await startTestApp({}, targetDb);
  const target = { key: fresh.key, orgId: fresh.orgId };
  await fresh.close();
  const importInto = async (file: string) => {
    const store = storeOf(targetDb);
    try {
      return await importArchive(
        {
          store,
          dataDir: targetDb.dataDir,
          webhookSecrets: secretBoxes({ secretKey: null, secretKeyPrevious: [], dataDir: targetDb.dataDir, webhookSecretKey: null, connectorSecretKey: null })
            .webhooks,
        },
        { file, orgId: target.orgId },
      );
    } finally {
      await store.close();
    }
  };
  await assert.rejects(importInto(damaged), /context_vectors file holds \d+ rows, its manifest says \d+/);
  const afterFailure = await startTestApp({}, targetDb);
  try {
    const databases = await afterFailure.request("GET", "/databases", { key: target.key });
    assert.deepEqual(field<unknown[]>(databases.body, "data.databases"), [], "the failed import wrote nothing");
  } finally {
    await afterFailure.close();
  }

  const result = await importInto(archive);
  assert.equal(result.requeued, 1);
  const served = await startTestApp({}, targetDb);
  try {
    const [row] = await waitTerminal(served, "kb", ["late"], undefined, 60_000, target.key);
    assert.equal(row?.indexing_status, "completed");
    const res = await served.request("POST", "/query", { key: target.key, body: { database: "kb", query: "saffron buns Lucia", max_results: 1 } });
    assert.match(field<Array<{ chunk_content: string }>>(res.body, "data.chunks")[0]?.chunk_content ?? "", /Saffron buns/);
  } finally {
    await served.close();
  }
});
