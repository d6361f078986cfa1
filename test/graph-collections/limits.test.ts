import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";
import { assertDetailError, createGraphDatabase, graphClient, type GraphClient } from "./graph-client.js";

describe("graph area limits", () => {
  let t: TestApp;
  let g: GraphClient;
  before(async () => {
    // A small cap and budget so the limits are reached quickly; the defaults are 10,000 rows and 30 s.
    t = await startTestApp({ GRAPH_MAX_ROWS: "5", GRAPH_QUERY_TIMEOUT_MS: "150" });
    await createGraphDatabase(t, "lim");
    g = graphClient(t, "lim");
  });
  after(async () => t.close());

  test("rows beyond the cap are dropped (X-Result-Truncated marks it); a page with SKIP/LIMIT is exact", async () => {
    const res = await g.query("c", "UNWIND range(1, 12) AS i RETURN i");
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data,
      [1, 2, 3, 4, 5].map((i) => ({ i })),
    );
    assert.equal(res.headers.get("x-result-truncated"), "true");
    const page = await g.query("c", "UNWIND range(1, 12) AS i RETURN i ORDER BY i SKIP 10 LIMIT 5");
    assert.deepEqual(page.body.data, [{ i: 11 }, { i: 12 }]);
    assert.equal(page.headers.get("x-result-truncated"), null);
  });

  test("the cap limits returned rows, not the writes of the query", async () => {
    const rows = await g.rows("c", "UNWIND range(1, 12) AS i CREATE (n:Capped {i: i}) RETURN n.i AS i");
    assert.equal(rows.length, 5);
    assert.deepEqual(await g.rows("c", "MATCH (n:Capped) RETURN count(n) AS n"), [{ n: 12 }]);
  });

  test("a write that runs past the time budget is rolled back and answered 400 QUERY_TIMEOUT", async () => {
    const res = await g.query("slow", "UNWIND range(1, 10000) AS i UNWIND range(1, 10000) AS j CREATE (:T {i: i})");
    assert.match(assertDetailError(res, 400, "QUERY_TIMEOUT"), /time budget/);
    assert.deepEqual(await g.rows("slow", "MATCH (n) RETURN count(n) AS n"), [{ n: 0 }]);
    assert.deepEqual(await g.collections(), ["c"], "nothing of the timed-out write was stored");
    const existing = await g.query(
      "c",
      "MATCH (n:Capped) SET n.touched = true WITH n UNWIND range(1, 10000) AS i UNWIND range(1, 10000) AS j RETURN count(*) AS n",
    );
    assertDetailError(existing, 400, "QUERY_TIMEOUT");
    assert.deepEqual(await g.rows("c", "MATCH (n:Capped) WHERE n.touched RETURN count(n) AS n"), [{ n: 0 }]);
  });

  test("a read past the budget is 400 QUERY_TIMEOUT too", async () => {
    const res = await g.query("c", "UNWIND range(1, 10000) AS i UNWIND range(1, 10000) AS j WITH i WHERE i < 0 RETURN count(i) AS n");
    assert.match(assertDetailError(res, 400, "QUERY_TIMEOUT"), /TimeoutError/);
  });

  test("bodies above 256 KiB are 413 in the {detail} shape; just below is accepted", async () => {
    const pad = (bytes: number) => `RETURN '${"x".repeat(bytes)}' AS s`;
    const big = await g.query("c", pad(256 * 1024 + 10));
    assertDetailError(big, 413, "PAYLOAD_TOO_LARGE");
    const ok = await g.query("c", "RETURN size($s) AS n", { s: "x".repeat(250 * 1024) });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.data, [{ n: 250 * 1024 }]);
  });
});
