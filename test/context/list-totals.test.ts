import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { ingestApp, ingestMemories, listContext } from "../helpers/context.js";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";

const note = (id: string, text: string) => ({ id, type: "note", title: id, content: { text } });

/**
 * A list's total after every kind of write. On SQLite the total of a list that filters by scope
 * alone comes from counts kept by triggers (migration 18); these checks hold it to the rows.
 */
describe("POST /context/list totals follow every write", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "tot");
  });
  after(async () => t.close());

  const total = async (body: Record<string, unknown>): Promise<number> => {
    const res = await listContext(t, { database: "tot", ...body });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, "data.pagination.total"), field(res.body, "data.total"));
    return field<number>(res.body, "data.total");
  };

  test("ingest, replace, delete and expire, per collection and corpus", async () => {
    await ingestApp(t, "tot", [note("a1", "alpha"), note("a2", "beta"), note("a3", "gamma")]);
    await ingestApp(t, "tot", [note("b1", "delta"), note("b2", "epsilon")], { collection: "other" });
    await ingestMemories(t, "tot", [
      { id: "m1", text: "Likes tea", infer: false },
      { id: "m2", text: "Short-lived note", infer: false, expiry_time: 3600 },
    ]);
    assert.deepEqual([await total({}), await total({ collection: "other" }), await total({ type: "memory" })], [3, 2, 2]);

    // Re-ingesting an id replaces the item: the total stays.
    await ingestApp(t, "tot", [note("a1", "alpha, second version")]);
    assert.equal(await total({}), 3);

    const deleted = await t.request("DELETE", "/context", { body: { database: "tot", ids: ["a2"] } });
    assert.ok(deleted.status < 300, deleted.text);
    assert.deepEqual([await total({}), await total({ collection: "other" })], [2, 2]);

    // An expired memory leaves the total at once, before the purge removes its row, and once after it.
    t.clock.advance(3_600_001);
    assert.equal(await total({ type: "memory" }), 1);
    assert.equal(await t.app.maintenance.purgeExpired(), 1);
    assert.equal(await total({ type: "memory" }), 1);
  });

  test("a list that filters further still counts its rows", async () => {
    assert.equal(await total({ ids: ["a1", "zzz"] }), 1);
  });

  test("a deleted and recreated database starts from zero", async () => {
    await createReadyDatabase(t, "gone");
    await ingestApp(t, "gone", [note("g1", "one"), note("g2", "two")]);
    const del = await t.request("DELETE", "/databases", { body: { database: "gone" } });
    assert.equal(del.status, 202, del.text);
    await eventually(
      async () => (await t.app.store.db.selectFrom("context_items").select("id").where("source_id", "=", "g1").executeTakeFirst()) === undefined,
    );
    await createReadyDatabase(t, "gone");
    const res = await listContext(t, { database: "gone" });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, "data.total"), 0);
  });

  test("every scope's total equals its visible rows (and, on SQLite, its kept count)", async () => {
    const now = t.clock.now();
    const { rows } = await sql<{ database_id: string; corpus: string; collection: string; visible: number; stored: number }>`
      SELECT database_id, corpus, collection,
             sum(CASE WHEN expires_at IS NULL OR expires_at > ${now} THEN 1 ELSE 0 END) AS visible, count(*) AS stored
      FROM context_items WHERE database_id = (SELECT id FROM databases WHERE name = 'tot' AND status <> 'deleting')
      GROUP BY database_id, corpus, collection`.execute(t.app.store.db);
    assert.equal(rows.length, 3);
    for (const r of rows) {
      const body = { collection: r.collection, type: r.corpus };
      assert.equal(await total(body), Number(r.visible), JSON.stringify(body));
      if (t.app.store.backend === "sqlite") {
        const { rows: kept } = await sql<{ items: number }>`
          SELECT items FROM context_item_counts WHERE database_id = ${r.database_id} AND corpus = ${r.corpus} AND collection = ${r.collection}`.execute(
          t.app.store.db,
        );
        assert.equal(Number(kept[0]?.items), Number(r.stored), `kept count of ${JSON.stringify(body)}`);
      }
    }
  });
});
