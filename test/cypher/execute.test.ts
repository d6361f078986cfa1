import { test } from "node:test";
import assert from "node:assert/strict";
import { CypherError, MemoryGraphStore, executeCypher, renderRows } from "../../src/engines/cypher/index.js";

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
  assert.throws(
    () => executeCypher(store, "CREATE (:A) WITH 1 AS x RETURN y"),
    (e: unknown) => e instanceof CypherError && e.detail === "UndefinedVariable",
  );
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

test("size budgets: range, concatenation, collect and held rows fail fast with ResourceLimitError and roll back", () => {
  const store = new MemoryGraphStore();
  const limits = { maxListLength: 1_000, maxStringLength: 1_000 };
  const fails = (query: string, detail: string) =>
    assert.throws(
      () => executeCypher(store, query, {}, limits),
      (e: unknown) => e instanceof CypherError && e.type === "ResourceLimitError" && e.detail === detail,
      query,
    );
  fails("RETURN range(1, 1000000000) AS r", "ListTooLong");
  fails("RETURN size(reduce(s = 'a', i IN range(1, 20) | s + s)) AS n", "StringTooLong");
  fails("RETURN size(reduce(l = [1], i IN range(1, 20) | l + l)) AS n", "ListTooLong");
  fails("UNWIND range(1, 1000) AS i UNWIND range(1, 2) AS j RETURN size(collect(i)) AS n", "ListTooLong");
  fails("UNWIND range(1, 1000) AS i UNWIND range(1, 2) AS j RETURN i ORDER BY i", "TooManyRows");
  fails("UNWIND range(1, 1000) AS i UNWIND range(1, 2) AS j CREATE (:N)", "TooManyRows");
  assert.equal(executeCypher(store, "MATCH (n) RETURN count(n) AS c").rows[0]?.c, 0n, "the refused CREATE wrote nothing");
  assert.equal(executeCypher(store, "RETURN size(range(1, 1000)) AS n", {}, limits).rows[0]?.n, 1000n, "at the budget is fine");
});

test("nesting: the parser and the tree-depth check refuse deep input with SyntaxError/NestingTooDeep, never a RangeError", () => {
  const store = new MemoryGraphStore();
  const deep = (q: string) =>
    assert.throws(
      () => executeCypher(store, q),
      (e: unknown) => e instanceof CypherError && e.detail === "NestingTooDeep",
      q.slice(0, 40),
    );
  deep(`RETURN ${"(".repeat(10_000)}1${")".repeat(10_000)}`);
  deep(`RETURN ${"NOT ".repeat(10_000)}true`);
  deep(`RETURN ${Array.from({ length: 10_000 }, () => "1").join(" + ")}`);
  deep(`WITH {a: 1} AS m RETURN m${".a".repeat(10_000)}`);
  deep(`${"CALL { ".repeat(1_000)}RETURN 1 AS x${" }".repeat(1_000)} RETURN x`);
  assert.equal(executeCypher(store, `RETURN ${"(".repeat(150)}1${")".repeat(150)} AS x`).rows[0]?.x, 1n, "150 levels are fine");
  assert.throws(
    () => executeCypher(store, "RETURN $p AS p", { p: JSON.parse(`${"[".repeat(500)}${"]".repeat(500)}`) as unknown }),
    (e: unknown) => e instanceof CypherError && e.detail === "ParameterTooDeep",
  );
});
