import assert from "node:assert/strict";
import { test } from "node:test";
import { searchBm25 } from "../../src/engines/bm25/inverted-index.js";
import { tokenize } from "../../src/engines/bm25/index.js";
import { TermIndexes, type TermScope } from "../../src/features/search/term-indexes.js";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

const quiet = { debug: () => undefined, warn: () => undefined };

test("a BM25 index kept by another process drops what was deleted, one slice of keys per reconcile, and ranks as one built anew", async () => {
  const t = await startTestApp();
  try {
    await createReadyDatabase(t, "sliced");
    const items = Array.from({ length: 30 }, (_, n) => ({ id: `n-${n}`, type: "note", content: { text: `Note ${n} on harbour cranes and tide ${n % 4}.` } }));
    assert.equal((await ingestMultipart(t, { type: "knowledge", database: "sliced", app_knowledge: JSON.stringify(items) })).status, 202);
    await waitTerminal(
      t,
      "sliced",
      items.map((i) => i.id),
    );
    const stored = await t.app.store.db
      .selectFrom("context_chunks")
      .select(["database_id", "collection"])
      .where("org_id", "=", t.orgId)
      .where("corpus", "=", "knowledge")
      .executeTakeFirstOrThrow();
    const scope: TermScope = { orgId: t.orgId, databaseId: stored.database_id, corpus: "knowledge", collection: stored.collection };
    const chunks = (
      await t.app.store.db
        .selectFrom("context_chunks as c")
        .innerJoin("context_items as i", "i.id", "c.item_id")
        .select(["c.chunk_key", "i.source_id"])
        .where("i.org_id", "=", t.orgId)
        .execute()
    )
      .map((r) => ({ key: Number(r.chunk_key), id: r.source_id }))
      .sort((x, y) => x.key - y.key);
    assert.equal(chunks.length, 30);

    // This instance stands for another process: the app's deletions do not reach it.
    let clock = 0;
    const other = new TermIndexes(t.app.store, quiet, { now: () => clock, sliceChunks: 4 });
    const index = await other.get(scope);
    assert.equal(index.docCount, 30);

    // The lowest and highest keys (slice edges) and one in the middle.
    const deleted = [chunks[0]!, chunks[14]!, chunks[29]!];
    const gone = deleted.map((c) => c.key);
    const goneIds = deleted.map((c) => c.id);
    assert.equal((await t.request("DELETE", "/context", { body: { database: "sliced", ids: goneIds } })).status, 200);

    // 30 chunks in slices of about 4: eight reconciles look at every key once.
    const seenAfter: number[] = [];
    for (let round = 0; round < 8; round++) {
      clock += 2_000;
      await other.get(scope); // starts a reconcile of the next slice
      await other.get(scope); // waits for it
      seenAfter.push(index.docCount);
    }
    assert.equal(index.docCount, 27, `after each reconcile: ${seenAfter.join(", ")}`);
    assert.ok(seenAfter[0]! > 27, `one reconcile looks at one slice, not at every key: ${seenAfter.join(", ")}`);
    for (const key of gone) assert.equal(index.has(key), false);

    const fresh = await new TermIndexes(t.app.store, quiet).get(scope);
    assert.equal(fresh.docCount, 27);
    const query = tokenize("harbour tide cranes");
    assert.deepEqual(searchBm25([index], query, 30, "or"), searchBm25([fresh], query, 30, "or"));
  } finally {
    await t.close();
  }
});
