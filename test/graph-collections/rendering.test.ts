import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";
import { createGraphDatabase, graphClient, type GraphClient } from "./graph-client.js";

describe("graph area rendering (spec table)", () => {
  let t: TestApp;
  let g: GraphClient;
  before(async () => {
    t = await startTestApp();
    await createGraphDatabase(t, "render");
    g = graphClient(t, "render");
    await g.rows(
      "c",
      `CREATE (a:Person:Admin {name: 'Ann', id: 'stored-id', labels: 'stored-labels', age: 41})
              -[:KNOWS {since: 2001, relation: 'stored', source_node_id: -1, target_node_id: -2}]->
              (b:Person {name: 'Bob'})`,
    );
  });
  after(async () => t.close());

  test("a write without RETURN gives []", async () => {
    assert.deepEqual(await g.rows("w", "CREATE (:X {v: 1})"), []);
    assert.deepEqual(await g.rows("w", "MATCH (n:X) SET n.v = 2"), []);
  });

  test("a node is its properties plus id and labels; renderer keys shadow stored properties", async () => {
    const [row] = await g.rows("c", "MATCH (n:Person {name: 'Ann'}) RETURN n, id(n) AS nid");
    assert.ok(row);
    assert.deepEqual(row.n, { name: "Ann", id: row.nid, labels: ["Person", "Admin"], age: 41 });
    const [stored] = await g.rows("c", "MATCH (n:Person {name: 'Ann'}) RETURN n.id AS id, n.labels AS labels");
    assert.deepEqual(stored, { id: "stored-id", labels: "stored-labels" }, "stored values are untouched");
  });

  test("a relationship is its properties plus id, relation, source_node_id and target_node_id", async () => {
    const [row] = await g.rows("c", "MATCH (a)-[r:KNOWS]->(b) RETURN r, id(r) AS rid, id(a) AS aid, id(b) AS bid");
    assert.ok(row);
    assert.deepEqual(row.r, { since: 2001, relation: "KNOWS", source_node_id: row.aid, target_node_id: row.bid, id: row.rid });
  });

  test("a path is {nodes, edges} in traversal order", async () => {
    const [row] = await g.rows("c", "MATCH p = (b:Person {name: 'Bob'})<-[:KNOWS]-(a) RETURN p");
    const p = row?.p as { nodes: Array<{ name: string }>; edges: Array<{ relation: string }> };
    assert.deepEqual(
      p.nodes.map((n) => n.name),
      ["Bob", "Ann"],
    );
    assert.deepEqual(
      p.edges.map((e) => e.relation),
      ["KNOWS"],
    );
    assert.deepEqual(Object.keys(p), ["nodes", "edges"]);
  });

  test("lists and maps render recursively, including entities inside them", async () => {
    const [row] = await g.rows(
      "c",
      "MATCH (n:Person) WITH n ORDER BY n.name RETURN collect(n.name) AS names, {first: collect(n)[0].name, nested: {xs: [1, [2, 'x']]}} AS m, [null, true, 1.5] AS l",
    );
    assert.deepEqual(row, { names: ["Ann", "Bob"], m: { first: "Ann", nested: { xs: [1, [2, "x"]] } }, l: [null, true, 1.5] });
    const [withNodes] = await g.rows("c", "MATCH (n:Person {name: 'Bob'}) RETURN [n] AS ns, {who: n} AS m");
    assert.equal((withNodes?.ns as Array<{ name: string }>)[0]?.name, "Bob");
    assert.deepEqual((withNodes?.m as { who: { labels: string[] } }).who.labels, ["Person"]);
  });

  test("rows are keyed by RETURN column names; unaliased expressions by their text", async () => {
    const [row] = await g.rows("c", "MATCH (n:Person {name: 'Ann'}) RETURN n.name, n.age + 1, toUpper(n.name) AS upper, count(*)");
    assert.deepEqual(row, { "n.name": "Ann", "n.age + 1": 42, upper: "ANN", "count(*)": 1 });
  });

  test("strings, booleans, null, floats and integers; integers beyond 2^53 come back as (imprecise) numbers", async () => {
    const [row] = await g.rows("c", "RETURN 'x' AS s, false AS b, null AS n, 2.5 AS f, 2.0 AS fi, 7 / 2 AS i, 9007199254740993 AS big, 0.0 / 0.0 AS nan");
    assert.deepEqual(row, { s: "x", b: false, n: null, f: 2.5, fi: 2, i: 3, big: 9007199254740992, nan: null });
  });

  test("64-bit integers are stored exactly even though JSON shows them rounded", async () => {
    await g.rows("big", "CREATE (:N {v: 9223372036854775807, w: 9007199254740993})");
    const [row] = await g.rows("big", "MATCH (n:N) RETURN n.v AS v, toString(n.v) AS sv, toString(n.w) AS sw, n.w - 9007199254740992 AS diff");
    assert.deepEqual(row, { v: 2 ** 63, sv: "9223372036854775807", sw: "9007199254740993", diff: 1 });
  });

  test("params: integral JSON numbers are INTEGER, the rest FLOAT; maps and lists pass through", async () => {
    const [row] = await g.rows("c", "RETURN $i / 2 AS i, $f / 2 AS f, $m.k AS k, size($l) AS n", { i: 7, f: 7.5, m: { k: "v" }, l: [1, 2, 3] });
    assert.deepEqual(row, { i: 3, f: 3.75, k: "v", n: 3 });
  });

  test("a deleted entity returned by the same query renders as its id", async () => {
    await g.rows("del", "CREATE (:Gone {name: 'x'})");
    const [row] = await g.rows("del", "MATCH (n:Gone) WITH n, id(n) AS nid DETACH DELETE n RETURN n, nid");
    assert.deepEqual(row?.n, { id: row?.nid });
  });
});
