import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

let db: TestDb | null = null;
after(async () => db?.drop());

test("an API node finds by vector what a worker node indexed, and stops finding what another node deleted", { timeout: 120_000 }, async () => {
  db = await createTestDb();
  // Two nodes on one store: the API node runs no jobs; the worker node indexes what it accepts.
  const api = await startTestApp({ WORKERS: "0" }, db);
  const worker = await startTestApp({}, db);
  try {
    await createReadyDatabase(api, "shared");
    // alpha 1 and questions that share no word with the texts: only the dense retriever can answer.
    const first = async (query: string): Promise<string | undefined> => {
      const res = await api.request("POST", "/query", { body: { database: "shared", query, alpha: 1, max_results: 2, graph_context: false } });
      assert.equal(res.status, 200, res.text);
      return field<Array<{ id: string }>>(res.body, "data.chunks")[0]?.id;
    };
    // The API node loads its (empty) index of the collection before anything is indexed.
    assert.equal(await first("astronomy and stars in space"), undefined);

    const items = [
      { id: "astro", type: "note", content: { text: "The telescope observed a distant galaxy cluster last night." } },
      { id: "cook", type: "note", content: { text: "Slow roasted tomatoes with garlic make a great pasta sauce." } },
    ];
    const accepted = await ingestMultipart(api, { type: "knowledge", database: "shared", app_knowledge: JSON.stringify(items) });
    assert.equal(accepted.status, 202, accepted.text);
    await waitTerminal(api, "shared", ["astro", "cook"]);
    assert.equal(await first("astronomy and stars in space"), "astro");
    assert.equal(await first("recipe for an italian dinner"), "cook");
    const sqlite = api.app.store.backend === "sqlite";
    if (sqlite) assert.equal(api.app.vectors.memory().vectors, 2, "the API node's own index read both from the table");

    // Deleted through the worker node: the answer drops it at once (visibility is checked in the
    // store), and on SQLite the API node's own index drops it at its next reconcile.
    const rebuilds = api.app.vectors.memory().rebuilds;
    const deleted = await worker.request("DELETE", "/context", { key: api.key, body: { database: "shared", ids: ["astro"] } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(await first("astronomy and stars in space"), "cook");
    if (sqlite) {
      await eventually(async () => (await first("astronomy and stars in space")) === "cook" && api.app.vectors.memory().vectors === 1, 30_000, 250);
      assert.equal(api.app.vectors.memory().rebuilds, rebuilds, "the deleted key was removed, the index not rebuilt");
    }
  } finally {
    await worker.close();
    await api.close();
  }
});

test("a process opening an index saved before other rows were added reads them in, without a rebuild", { timeout: 120_000 }, async () => {
  const store = await createTestDb();
  try {
    // The first node indexes one item and saves its index file at shutdown.
    const first = await startTestApp({}, store);
    await createReadyDatabase(first, "saved");
    const key = first.key;
    const ingest = async (t: typeof first, items: object[]): Promise<void> => {
      const accepted = await ingestMultipart(t, { type: "knowledge", database: "saved", app_knowledge: JSON.stringify(items) }, [], key);
      assert.equal(accepted.status, 202, accepted.text);
    };
    await ingest(first, [{ id: "astro", type: "note", content: { text: "The telescope observed a distant galaxy cluster last night." } }]);
    await waitTerminal(first, "saved", ["astro"]);
    await first.close();
    // A second node adds a row (its index, and so the file, stays as the first one left it:
    // indexes are saved at shutdown) while a third, API-only, node opens the saved file.
    const worker = await startTestApp({}, store);
    try {
      await ingest(worker, [{ id: "cook", type: "note", content: { text: "Slow roasted tomatoes with garlic make a great pasta sauce." } }]);
      await waitTerminal(worker, "saved", ["cook"], undefined, 60_000, key);
      const api = await startTestApp({ WORKERS: "0" }, store);
      try {
        const first = async (query: string): Promise<string | undefined> => {
          const res = await api.request("POST", "/query", { key, body: { database: "saved", query, alpha: 1, max_results: 1, graph_context: false } });
          assert.equal(res.status, 200, res.text);
          return field<Array<{ id: string }>>(res.body, "data.chunks")[0]?.id;
        };
        assert.equal(await first("recipe for an italian dinner"), "cook");
        assert.equal(await first("astronomy and stars in space"), "astro");
        if (api.app.store.backend === "sqlite") {
          assert.deepEqual(api.app.vectors.memory().vectors, 2);
          assert.equal(api.app.vectors.memory().rebuilds, 0, "the saved file was caught up, not rebuilt");
        }
      } finally {
        await api.close();
      }
    } finally {
      await worker.close();
    }
  } finally {
    await store.drop();
  }
});

test("a process opening an index saved before one of its rows was deleted removes that key, without a rebuild", { timeout: 120_000 }, async () => {
  const store = await createTestDb();
  try {
    const first = await startTestApp({}, store);
    await createReadyDatabase(first, "stale");
    const key = first.key;
    const items = [
      { id: "astro", type: "note", content: { text: "The telescope observed a distant galaxy cluster last night." } },
      { id: "cook", type: "note", content: { text: "Slow roasted tomatoes with garlic make a great pasta sauce." } },
    ];
    const accepted = await ingestMultipart(first, { type: "knowledge", database: "stale", app_knowledge: JSON.stringify(items) });
    assert.equal(accepted.status, 202, accepted.text);
    await waitTerminal(first, "stale", ["astro", "cook"]);
    await first.close();
    // Deleted by a node that never loads the index: the saved file still holds the key.
    const deleter = await startTestApp({ WORKERS: "0", WARM_UP_INDEXES: "false" }, store);
    try {
      const deleted = await deleter.request("DELETE", "/context", { key, body: { database: "stale", ids: ["astro"] } });
      assert.equal(deleted.status, 200, deleted.text);
    } finally {
      await deleter.close();
    }
    const api = await startTestApp({ WORKERS: "0" }, store);
    try {
      const res = await api.request("POST", "/query", {
        key,
        body: { database: "stale", query: "astronomy and stars in space", alpha: 1, max_results: 2, graph_context: false },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        field<Array<{ id: string }>>(res.body, "data.chunks").map((c) => c.id),
        ["cook"],
      );
      if (api.app.store.backend === "sqlite") {
        assert.equal(api.app.vectors.memory().vectors, 1);
        assert.equal(api.app.vectors.memory().rebuilds, 0, "the stale key was removed, the index not rebuilt");
      }
    } finally {
      await api.close();
    }
  } finally {
    await store.drop();
  }
});
