import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { startTestApp } from "../helpers/harness.js";
import { backendUnderTest, createTestDb } from "../helpers/test-db.js";
import { createGraphDatabase, graphClient } from "./graph-client.js";

// Two application instances on one store stand in for two processes. On SQLite they take turns:
// better-sqlite3 is synchronous, so one instance waiting on the other's write lock would block
// the event loop both share; separate processes serialise on BEGIN IMMEDIATE instead.
test("two instances on one store see each other's writes and stay consistent", async () => {
  const db = await createTestDb();
  // 20 concurrent writes of one organization below: above the default per-organization limit.
  const a = await startTestApp({ GRAPH_MAX_CONCURRENT_PER_ORG: "32" }, db);
  const b = await startTestApp({ GRAPH_MAX_CONCURRENT_PER_ORG: "32" }, db);
  try {
    await createGraphDatabase(a, "shared");
    const ga = graphClient(a, "shared");
    const gb = graphClient(b, "shared", a.key);
    await ga.rows("c", "CREATE (:Counter {v: 0})");
    assert.deepEqual(await gb.rows("c", "MATCH (n:Counter) RETURN n.v AS v"), [{ v: 0 }]);
    await gb.rows("c", "MATCH (n:Counter) SET n.v = n.v + 1 CREATE (:Made {by: 'b'})");
    assert.deepEqual(await ga.rows("c", "MATCH (n:Counter) RETURN n.v AS v"), [{ v: 1 }], "a reloads after b's write");

    const increment = (g: typeof ga) => g.rows("c", "MATCH (n:Counter) SET n.v = n.v + 1 CREATE (:Inc) RETURN n.v AS v");
    if (backendUnderTest() === "postgres") {
      await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? ga : gb)));
    } else {
      for (let i = 0; i < 20; i++) await increment(i % 2 === 0 ? ga : gb);
    }
    const expected = [{ v: 21, incs: 20, ids: 22 }];
    const check = "MATCH (c:Counter) MATCH (n) WITH c, collect(n) AS all RETURN c.v AS v, size([x IN all WHERE x:Inc]) AS incs, size(all) AS ids";
    assert.deepEqual(await ga.rows("c", check), expected);
    assert.deepEqual(await gb.rows("c", check), expected);

    await b.request("DELETE", "/byog/collections", { body: { database: "shared", collection: "c" }, key: a.key });
    assert.deepEqual(await ga.rows("c", "MATCH (n) RETURN count(n) AS n"), [{ n: 0 }], "a sees b's drop");
    await gb.rows("c", "CREATE (:Again)");
    assert.deepEqual(await ga.rows("c", "MATCH (n) RETURN labels(n) AS l"), [{ l: ["Again"] }], "a re-created collection is not mistaken for the old one");
  } finally {
    await a.close();
    await b.close();
    await db.drop();
  }
});

test("reads do not take the collection's write lock", async () => {
  const db = await createTestDb();
  // No job workers: on SQLite a background write (a job claim every 20 ms) would wait for the lock
  // held below inside better-sqlite3's synchronous busy wait, freezing this process for up to
  // busy_timeout; that is not what this test is about.
  const t = await startTestApp({ WORKERS: "0" }, db);
  try {
    await createGraphDatabase(t, "locks");
    const g = graphClient(t, "locks");
    await g.rows("c", "CREATE (:N {v: 1})");
    if (backendUnderTest() === "postgres") {
      // Another session holds the collection row as a writer would.
      const holder = new pg.Client({ connectionString: db.databaseUrl ?? "" });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT id FROM graph_collections WHERE name = 'c' FOR UPDATE");
        assert.deepEqual(await g.rows("c", "MATCH (n:N) RETURN n.v AS v"), [{ v: 1 }], "a read completes while the lock is held");
        assert.deepEqual(await g.rows("c", "MERGE (n:N {v: 1}) RETURN n.v AS v"), [{ v: 1 }], "a MERGE that matches is a read");
        let written = false;
        const write = g.rows("c", "CREATE (:N {v: 2})").then((rows) => ((written = true), rows));
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(written, false, "a write waits for the lock");
        await holder.query("COMMIT");
        assert.deepEqual(await write, []);
      } finally {
        await holder.end();
      }
    } else {
      // SQLite: a second connection holds the write lock; WAL readers are not blocked by it.
      const { default: Database } = await import("better-sqlite3");
      const holder = new Database(`${db.dataDir}/context-store.sqlite`);
      try {
        holder.exec("BEGIN IMMEDIATE");
        assert.deepEqual(await g.rows("c", "MATCH (n:N) RETURN n.v AS v"), [{ v: 1 }], "a read completes while the lock is held");
        assert.deepEqual(await g.rows("c", "MERGE (n:N {v: 1}) RETURN n.v AS v"), [{ v: 1 }], "a MERGE that matches is a read");
        holder.exec("COMMIT");
      } finally {
        holder.close();
      }
      await g.rows("c", "CREATE (:N {v: 2})");
    }
    assert.deepEqual(await g.rows("c", "MATCH (n:N) RETURN n.v AS v ORDER BY v"), [{ v: 1 }, { v: 2 }]);
  } finally {
    await t.close();
    await db.drop();
  }
});
