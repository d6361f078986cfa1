import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

let db: TestDb | null = null;
after(async () => db?.drop());

test("dense search survives a restart with the vector index files deleted (rebuilt from the store)", async () => {
  db = await createTestDb();
  const first = await startTestApp({}, db);
  await createReadyDatabase(first, "vec");
  const items = [
    { id: "astro", type: "note", content: { text: "The telescope observed a distant galaxy cluster last night." } },
    { id: "cook", type: "note", content: { text: "Slow roasted tomatoes with garlic make a great pasta sauce." } },
  ];
  assert.equal((await ingestMultipart(first, { type: "knowledge", database: "vec", app_knowledge: JSON.stringify(items) })).status, 202);
  await waitTerminal(first, "vec", ["astro", "cook"]);
  const key = first.key;
  await first.close();
  rmSync(join(db.dataDir, "indexes"), { recursive: true, force: true });

  const second = await startTestApp({}, db);
  try {
    // alpha 1: the dense retriever alone decides the order
    const res = await second.request("POST", "/query", { key, body: { database: "vec", query: "astronomy and stars in space", alpha: 1, max_results: 2 } });
    assert.equal(res.status, 200, res.text);
    const ids = field<Array<{ id: string }>>(res.body, "data.chunks").map((c) => c.id);
    assert.equal(ids[0], "astro");
    const food = await second.request("POST", "/query", { key, body: { database: "vec", query: "recipe for an italian dinner", alpha: 1, max_results: 2 } });
    assert.equal(field<Array<{ id: string }>>(food.body, "data.chunks")[0]?.id, "cook");
  } finally {
    await second.close();
  }
});
