import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, startTestApp } from "../helpers/harness.js";
import { createTestDb } from "../helpers/test-db.js";
import { createGraphDatabase, graphClient } from "./graph-client.js";

test("graphs survive a restart exactly: values, relationships, deletions, indexes, id allocation", async () => {
  const db = await createTestDb();
  try {
    const first = await startTestApp({}, db);
    const key = first.key;
    await createGraphDatabase(first, "persist");
    const g1 = graphClient(first, "persist");
    await g1.rows(
      "c",
      `CREATE (a:Person:Admin {name: 'Ann', i: 42, big: 9223372036854775807, f: 2.0, frac: 0.1,
                               nan: 0.0 / 0.0, inf: 1.0 / 0.0, ninf: -1.0 / 0.0, nz: -0.0, ok: true,
                               ints: [1, 2], floats: [1.0, 2.5], strs: ['x', 'y']})
              -[:KNOWS {since: 2001, w: 0.5}]->(b:Person {name: 'Bob'}),
             (:Person {name: 'Gone'})`,
    );
    await g1.rows("c", "MATCH (n {name: 'Gone'}) DELETE n");
    await g1.rows("c", "CREATE INDEX FOR (n:Person) ON (n.name)");
    await g1.rows("c", "MATCH (n:Person {name: 'Bob'}) SET n.age = 30, n:Member REMOVE n:Person");
    await first.close();

    const second = await startTestApp({}, db);
    try {
      const g2 = graphClient(second, "persist", key);
      const [ann] = await g2.rows(
        "c",
        `MATCH (a:Admin) RETURN labels(a) AS labels, a.i AS i, toString(a.big) AS big, toString(a.f) AS f, a.frac AS frac,
                toString(a.nan) AS nan, toString(a.inf) AS inf, toString(a.ninf) AS ninf, toString(a.nz) AS nz, a.ok AS ok,
                [x IN a.ints | toString(x)] AS ints, [x IN a.floats | toString(x)] AS floats, a.strs AS strs, a.i / 5 AS intDiv, a.f / 4 AS floatDiv`,
      );
      assert.deepEqual(ann, {
        labels: ["Person", "Admin"],
        i: 42,
        big: "9223372036854775807",
        f: "2.0",
        frac: 0.1,
        nan: "NaN",
        inf: "Infinity",
        ninf: "-Infinity",
        nz: "-0.0",
        ok: true,
        ints: ["1", "2"],
        floats: ["1.0", "2.5"],
        strs: ["x", "y"],
        intDiv: 8,
        floatDiv: 0.5,
      });
      assert.deepEqual(
        await g2.rows("c", "MATCH (a)-[r:KNOWS]->(b) RETURN a.name AS a, r.since AS since, r.w AS w, b.name AS b, labels(b) AS lb, b.age AS age"),
        [{ a: "Ann", since: 2001, w: 0.5, b: "Bob", lb: ["Member"], age: 30 }],
      );
      assert.deepEqual(await g2.rows("c", "MATCH (n {name: 'Gone'}) RETURN n"), []);
      const indexes = await second.app.store.db.selectFrom("graph_indexes").select(["entity", "token", "property"]).execute();
      assert.deepEqual(indexes, [{ entity: "node", token: "Person", property: "name" }]);
      assert.deepEqual(await g2.rows("c", "MATCH (n:Person {name: 'Ann'}) RETURN n.i AS i"), [{ i: 42 }], "the restored index answers");
      await g2.rows("c", "UNWIND range(1, 5) AS i CREATE (:New {i: i})");
      assert.deepEqual(await g2.rows("c", "MATCH (n) RETURN count(n) AS n, count(DISTINCT id(n)) AS ids"), [{ n: 7, ids: 7 }]);
    } finally {
      await second.close();
    }
  } finally {
    await db.drop();
  }
});

test("deleting a database (DELETE /databases) removes its graph rows", async () => {
  const t = await startTestApp();
  try {
    const count = async (table: "graph_nodes" | "graph_relationships" | "graph_collections" | "graph_indexes") =>
      Number(
        (
          await t.app.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await createGraphDatabase(t, "doomed");
    await createGraphDatabase(t, "kept");
    for (const name of ["doomed", "kept"]) {
      const g = graphClient(t, name);
      await g.rows("a", "CREATE (:X)-[:R]->(:Y)");
      await g.rows("b", "CREATE INDEX FOR (n:X) ON (n.v)");
    }
    assert.deepEqual(
      [await count("graph_nodes"), await count("graph_relationships"), await count("graph_collections"), await count("graph_indexes")],
      [4, 2, 4, 2],
    );
    const res = await t.request("DELETE", "/databases", { body: { database: "doomed" } });
    assert.equal(res.status, 202);
    await eventually(async () => (await count("graph_collections")) === 2);
    assert.deepEqual([await count("graph_nodes"), await count("graph_relationships"), await count("graph_indexes")], [2, 1, 1]);
    assert.deepEqual(await graphClient(t, "kept").rows("a", "MATCH (n) RETURN count(n) AS n"), [{ n: 2 }]);
    await createGraphDatabase(t, "doomed");
    assert.deepEqual(await graphClient(t, "doomed").rows("a", "MATCH (n) RETURN count(n) AS n"), [{ n: 0 }]);
  } finally {
    await t.close();
  }
});
