import { test } from "node:test";
import assert from "node:assert/strict";
import { CypherError, MemoryGraphStore, executeCypher, renderRows } from "../../src/cypher/index.js";

function seeded(): MemoryGraphStore {
  const store = new MemoryGraphStore();
  executeCypher(store, "CREATE (:Person {name: 'a', id: 'shadowed'})-[:KNOWS {since: 2020}]->(:Person {name: 'b'})");
  return store;
}

void test("rendering follows the graph-area table", () => {
  const store = seeded();
  const r = executeCypher(store, "MATCH p = (a:Person {name: 'a'})-[k:KNOWS]->(b) RETURN a, k, p, [1, 2.5, 'x', null] AS l, {m: {n: true}} AS m, a.name");
  const [row] = renderRows(store, r.columns, r.rows);
  assert.deepEqual(r.columns, ["a", "k", "p", "l", "m", "a.name"]);
  assert.deepEqual(row?.a, { name: "a", id: 0, labels: ["Person"] });
  assert.deepEqual(row?.k, { since: 2020, id: 0, relation: "KNOWS", source_node_id: 0, target_node_id: 1 });
  assert.deepEqual(row?.p, {
    nodes: [
      { name: "a", id: 0, labels: ["Person"] },
      { name: "b", id: 1, labels: ["Person"] },
    ],
    edges: [{ since: 2020, id: 0, relation: "KNOWS", source_node_id: 0, target_node_id: 1 }],
  });
  assert.deepEqual(row?.l, [1, 2.5, "x", null]);
  assert.deepEqual(row?.m, { m: { n: true } });
  assert.equal(row?.["a.name"], "a");
});

void test("a write without RETURN yields no rows and no columns", () => {
  const store = new MemoryGraphStore();
  const r = executeCypher(store, "CREATE (:X)");
  assert.deepEqual(r.rows, []);
  assert.deepEqual(r.columns, []);
});

void test("a runtime error rolls the whole query back", () => {
  const store = seeded();
  const before = executeCypher(store, "MATCH (n) RETURN count(n) AS c").rows[0]?.c;
  assert.throws(
    () => executeCypher(store, "MATCH (n:Person) SET n.touched = true CREATE (:Extra) WITH n DETACH DELETE n WITH 1 AS one RETURN one / 0"),
    (e: unknown) => e instanceof CypherError && e.phase === "runtime",
  );
  assert.equal(executeCypher(store, "MATCH (n) RETURN count(n) AS c").rows[0]?.c, before);
  assert.equal(executeCypher(store, "MATCH (n) WHERE n.touched IS NOT NULL RETURN count(n) AS c").rows[0]?.c, 0n);
  assert.equal(executeCypher(store, "MATCH ()-[r:KNOWS]->() RETURN r.since AS s").rows[0]?.s, 2020n);
});

void test("compile-time errors happen before any write", () => {
  const store = new MemoryGraphStore();
  assert.throws(() => executeCypher(store, "CREATE (:A) WITH 1 AS x RETURN y"), (e: unknown) => e instanceof CypherError && e.detail === "UndefinedVariable");
  assert.equal(store.nodeCount(), 0);
});

void test("the row cap truncates results and reports it", () => {
  const store = new MemoryGraphStore();
  const r = executeCypher(store, "UNWIND range(1, 100) AS i RETURN i", {}, { maxRows: 10 });
  assert.equal(r.rows.length, 10);
  assert.equal(r.truncated, true);
  const all = executeCypher(store, "UNWIND range(1, 100) AS i RETURN i");
  assert.equal(all.rows.length, 100);
  assert.equal(all.truncated, false);
});

void test("exceeding the time budget throws and rolls back", () => {
  const store = new MemoryGraphStore();
  let clock = 0;
  // Each clock read advances one second: the budget of 5 s runs out during the write loop.
  const now = () => (clock += 1000);
  assert.throws(
    () => executeCypher(store, "UNWIND range(1, 100000) AS i CREATE (:N {i: i})", {}, { timeoutMs: 5000, now }),
    (e: unknown) => e instanceof CypherError && e.type === "TimeoutError",
  );
  assert.equal(store.nodeCount(), 0);
});

void test("parameters convert JSON numbers to integers and floats", () => {
  const store = new MemoryGraphStore();
  const r = executeCypher(store, "RETURN $i + 1 AS i, $f * 2 AS f, $m.k AS k", { i: 41, f: 1.25, m: { k: "v" } });
  assert.deepEqual(r.rows[0], { i: 42n, f: 2.5, k: "v" });
});

void test("the change set classifies created, updated and deleted entities", () => {
  const store = seeded();
  store.takeChanges();
  executeCypher(store, "MATCH (a {name: 'a'}) SET a.x = 1 CREATE (:New)");
  executeCypher(store, "MATCH (b {name: 'b'}) DETACH DELETE b");
  const changes = store.takeChanges();
  assert.deepEqual(changes.createdNodes, [2]);
  assert.deepEqual(changes.updatedNodes, [0]);
  assert.deepEqual(changes.deletedNodes, [1]);
  assert.deepEqual(changes.deletedRelationships, [0]);
  assert.equal(changes.indexesChanged, false);
});

void test("the planner uses an index for equality lookups", () => {
  const store = new MemoryGraphStore();
  executeCypher(store, "CREATE INDEX FOR (n:P) ON (n.k)");
  executeCypher(store, "UNWIND range(1, 1000) AS i CREATE (:P {k: i})");
  let scans = 0;
  const original = store.nodesByLabel.bind(store);
  store.nodesByLabel = (label: string) => {
    scans++;
    return original(label);
  };
  const r = executeCypher(store, "MATCH (n:P) WHERE n.k = $k RETURN n.k AS k", { k: 500 });
  assert.deepEqual(r.rows, [{ k: 500n }]);
  assert.equal(scans, 0);
});
