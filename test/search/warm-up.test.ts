import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

let db: TestDb | null = null;
after(async () => db?.drop());

test("at start the search indexes of stored scopes load in the background (WARM_UP_INDEXES), newest first", async () => {
  db = await createTestDb();
  const first = await startTestApp({}, db);
  assert.deepEqual(await first.app.indexesWarm, [], "an empty store has nothing to load");
  assert.equal(first.app.embedder.started, false, "nor a model to start before anything is ingested");
  await createReadyDatabase(first, "warm");
  const note = (id: string, text: string) => ({ id, type: "note", content: { text } });
  await ingestMultipart(first, {
    type: "knowledge",
    database: "warm",
    collection: "older",
    app_knowledge: JSON.stringify([note("o1", "Harbour cranes unload containers at dawn.")]),
  });
  await waitTerminal(first, "warm", ["o1"], "older");
  await ingestMultipart(first, {
    type: "knowledge",
    database: "warm",
    collection: "newer",
    app_knowledge: JSON.stringify([note("n1", "Glaciers carve valleys over millennia.")]),
  });
  await waitTerminal(first, "warm", ["n1"], "newer");
  const key = first.key;
  const databaseId = (await first.app.store.db.selectFrom("databases").select("id").where("name", "=", "warm").executeTakeFirstOrThrow()).id;
  await first.close();

  const second = await startTestApp({}, db);
  try {
    const loaded = await second.app.indexesWarm;
    assert.deepEqual(
      loaded.map((s) => [s.databaseId, s.corpus, s.collection]),
      [
        [databaseId, "knowledge", "newer"],
        [databaseId, "knowledge", "older"],
      ],
    );
    // The embedder's threads start too, so the first hybrid query does not wait for the model.
    await eventually(async () => (second.app.embedder.started ? true : null));
    const res = await second.request("POST", "/query", {
      key,
      body: { database: "warm", collection: "older", query: "cranes containers", query_by: "text", max_results: 1 },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(field<Array<{ id: string }>>(res.body, "data.chunks")[0]?.id, "o1");
  } finally {
    await second.close();
  }

  const off = await startTestApp({ WARM_UP_INDEXES: "false" }, db);
  try {
    assert.deepEqual(await off.app.indexesWarm, []);
    assert.equal(off.app.embedder.started, false);
  } finally {
    await off.close();
  }
});
