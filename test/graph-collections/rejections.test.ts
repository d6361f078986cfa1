import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";
import { assertDetailError, createGraphDatabase, graphClient, type GraphClient } from "./graph-client.js";

describe("graph area rejections and Cypher errors", () => {
  let t: TestApp;
  let g: GraphClient;
  before(async () => {
    t = await startTestApp();
    await createGraphDatabase(t, "rej");
    g = graphClient(t, "rej");
    await g.rows("c", "CREATE (:N {name: 'a'})-[:R]->(:N {name: 'b'})-[:R]->(:N {name: 'd'})");
  });
  after(async () => t.close());

  const count = async (collection = "c"): Promise<unknown> => (await g.rows(collection, "MATCH (n) RETURN count(n) AS n"))[0]?.n;

  // Each query writes before the rejected construct: nothing may run (or be stored) at all.
  const rejected: Array<[string, string, RegExp]> = [
    ["procedure call", "CREATE (:Side) WITH 1 AS x CALL db.labels() YIELD label RETURN label", /UnsupportedProcedureCall/],
    ["standalone procedure call", "CALL db.labels()", /UnsupportedProcedureCall/],
    ["LOAD CSV", "CREATE (:Side) WITH 1 AS x LOAD CSV FROM 'file:///p.csv' AS row CREATE (:Person {name: row[0]})", /UnsupportedClause/],
    ["EXISTS { } subquery", "CREATE (:Side) WITH 1 AS x MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN n", /UnsupportedSubquery/],
    ["exists() function", "CREATE (:Side) WITH 1 AS x MATCH (n) WHERE exists(n.name) RETURN n", /UnsupportedExists/],
    ["shortestPath in MATCH", "CREATE (:Side) WITH 1 AS x MATCH p = shortestPath((a:N {name: 'a'})-[*]->(d:N {name: 'd'})) RETURN p", /shortestPath/i],
    ["undirected shortestPath", "CREATE (:Side) WITH 1 AS x MATCH (a:N {name: 'a'}), (d:N {name: 'd'}) RETURN shortestPath((a)-[*]-(d)) AS p", /direct/i],
    ["shortestPath in WHERE", "CREATE (:Side) WITH 1 AS x MATCH (a:N), (d:N) WHERE length(shortestPath((a)-[*]->(d))) > 1 RETURN a", /shortestPath/i],
  ];

  for (const [name, query, pattern] of rejected) {
    test(`${name} is rejected before running: 400 INVALID_INPUT, no side effects`, async () => {
      const message = assertDetailError(await g.query("c", query), 400, "INVALID_INPUT");
      assert.match(message, pattern);
      assert.equal(await count(), 3);
      assertDetailError(await g.query("untouched", query), 400, "INVALID_INPUT");
      assert.deepEqual(await g.collections(), ["c"], "a rejected query creates no collection");
    });
  }

  test("the supported forms work: bare pattern predicates and shortestPath in RETURN", async () => {
    assert.deepEqual(await g.rows("c", "MATCH (n:N) WHERE (n)-[:R]->() RETURN n.name AS name ORDER BY name"), [{ name: "a" }, { name: "b" }]);
    const [row] = await g.rows("c", "MATCH (a:N {name: 'a'}), (d:N {name: 'd'}) RETURN length(shortestPath((a)-[:R*]->(d))) AS len");
    assert.deepEqual(row, { len: 2 });
  });

  test("syntax errors pass the engine's message through (with position)", async () => {
    const message = assertDetailError(await g.query("c", "MATCH (n RETURN n"), 400, "INVALID_INPUT");
    assert.match(message, /^SyntaxError\/\w+: .+\(line 1, column \d+\)$/);
  });

  test("semantic errors are 400 with the engine's message", async () => {
    const message = assertDetailError(await g.query("c", "RETURN x"), 400, "INVALID_INPUT");
    assert.match(message, /UndefinedVariable.*`x`/);
  });

  test("a runtime error rolls back every write of the query", async () => {
    const message = assertDetailError(await g.query("c", "CREATE (:Side) WITH 1 AS one RETURN 9223372036854775807 + one AS boom"), 400, "INVALID_INPUT");
    assert.match(message, /ArithmeticError\/IntegerOverflow/);
    assert.equal(await count(), 3);
    assertDetailError(await g.query("fresh", "CREATE (n:Side) SET n.x = 1 / 0"), 400, "INVALID_INPUT");
    assert.deepEqual(await g.collections(), ["c"], "a failed first write creates no collection");
  });

  test("a missing parameter is 400 and writes nothing", async () => {
    const message = assertDetailError(await g.query("c", "CREATE (:Side {v: $missing})"), 400, "INVALID_INPUT");
    assert.match(message, /ParameterMissing|missing/i);
    assert.equal(await count(), 3);
  });
});
