import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { assertDetailError, createGraphDatabase, graphClient, type GraphClient } from "./graph-client.js";
import { randomAb } from "../helpers/random-ab.js";

// An engine budget short enough for the time-bound queries to end soon, long enough that the size-bound
// ones reach their size budget first even on a loaded machine, and a small worker heap; everything
// else is the default (2 workers, 2 queries per org). The memory-bound query has an app of its own.
const TIMEOUT_MS = 5_000;
const RESPONSIVE_MS = 1_000;

// One match the engine cannot interrupt: 1,048,576 characters against about 2,000 instructions runs
// RE2's NFA for some 30 s (linear, but long), far past the 5 s budget.
const UNINTERRUPTIBLE = "WITH $s + $s AS s WITH s + s AS s WITH s + s AS s WITH s + s AS s RETURN s =~ '(?s:.*)a[ab]{1000}c' AS m";
const UNINTERRUPTIBLE_PARAMS = JSON.stringify({ s: randomAb(65_536) });

interface Observed {
  readonly res: HttpResult;
  /** Durations of every /healthz answer while the query ran (at least three). */
  readonly health: number[];
  /** When the other organization's small query answered, and when the hostile one did. */
  readonly otherAt: number;
  readonly hostileAt: number;
}

/** An app with a graph of 601 nodes to attack, and a second organization's small graph beside it. */
async function startHostileApp(env: Record<string, string>): Promise<{ t: TestApp; g: GraphClient; other: GraphClient }> {
  const t = await startTestApp(env);
  await createGraphDatabase(t, "hostile");
  const g = graphClient(t, "hostile");
  await g.rows("c", "UNWIND range(1, 601) AS i CREATE (:N {i: i})");
  const second = await t.newOrgKey();
  await createGraphDatabase(t, "calm", second.key);
  const other = graphClient(t, "calm", second.key);
  await other.rows("o", "CREATE (:Calm {v: 1})");
  return { t, g, other };
}

/** Runs the hostile query while polling /healthz and running another organization's small query. */
async function observeOn(t: TestApp, other: GraphClient, query: string, rawParams = "{}"): Promise<Observed> {
  const t0 = performance.now();
  let hostileAt = -1;
  // The body is written by hand: JSON.stringify itself cannot serialise 5,000-deep parameters.
  const rawBody = `{"database":"hostile","collection":"c","query":${JSON.stringify(query)},"params":${rawParams}}`;
  const request = t.request("POST", "/byog/query", { rawBody, headers: { "Content-Type": "application/json" } });
  const hostile = request.then((res) => ((hostileAt = performance.now() - t0), res));
  const calm = other.rows("o", "MATCH (n:Calm) RETURN n.v AS v").then((rows) => {
    assert.deepEqual(rows, [{ v: 1 }]);
    return performance.now() - t0;
  });
  const health: number[] = [];
  while (hostileAt < 0 || health.length < 3) {
    const start = performance.now();
    const res = await fetch(`${t.baseUrl}/healthz`);
    await res.text();
    health.push(performance.now() - start);
    assert.equal(res.status, 200);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { res: await hostile, health, otherAt: await calm, hostileAt };
}

/**
 * The event loop was never held by the query. A query run on the main thread would hold /healthz for its
 * whole run (seconds, up to the 5 s budget); the bound is far below that and far above what a garbage
 * collection pause or a busy 2-core CI machine adds, so it tells the two apart without timing the machine.
 */
function assertResponsive(o: Observed): void {
  const slow = o.health.filter((ms) => ms >= RESPONSIVE_MS);
  assert.deepEqual(slow, [], `every /healthz answer under ${RESPONSIVE_MS} ms while the query ran (${o.health.length} polls)`);
}

describe("graph area isolation: hostile queries fail alone, cleanly and with their own code", () => {
  let t: TestApp;
  let g: GraphClient;
  let other: GraphClient;

  before(async () => {
    // The regular expression budget raised far above its default, so that one match can outlast the deadline.
    ({ t, g, other } = await startHostileApp({
      GRAPH_QUERY_TIMEOUT_MS: String(TIMEOUT_MS),
      GRAPH_WORKER_MEMORY_MB: "128",
      GRAPH_MAX_REGEX_WORK: "1000000000000",
    }));
  });
  after(async () => t.close());
  const observe = (query: string, rawParams?: string): Promise<Observed> => observeOn(t, other, query, rawParams);

  /** For queries that run until their budget: the other organization was served before they ended. */
  function assertServedMeanwhile(o: Observed): void {
    assert.ok(
      o.otherAt < o.hostileAt,
      `the other organization answered (${o.otherAt.toFixed(0)} ms) before the hostile query ended (${o.hostileAt.toFixed(0)} ms)`,
    );
  }

  test("range(1, 1e9) is refused by the size budget before it is built: 400 QUERY_TOO_LARGE", async () => {
    const o = await observe("UNWIND range(1, 1000000000) AS x RETURN count(x)");
    assert.match(assertDetailError(o.res, 400, "QUERY_TOO_LARGE"), /list of more than/);
    assertResponsive(o);
  });

  test("a cartesian product over 601 nodes stops at the time budget: 400 QUERY_TIMEOUT", async () => {
    const o = await observe("MATCH (a), (b), (c) RETURN count(*) AS n");
    assert.match(assertDetailError(o.res, 400, "QUERY_TIMEOUT"), /time budget/);
    assertResponsive(o);
    assertServedMeanwhile(o);
  });

  test("two UNWINDs of 100,000-element ranges stop at the time budget: 400 QUERY_TIMEOUT", async () => {
    const o = await observe("UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS n");
    assertDetailError(o.res, 400, "QUERY_TIMEOUT");
    assertResponsive(o);
    assertServedMeanwhile(o);
  });

  test("string doubling to 2^40 characters is refused by the size budget: 400 QUERY_TOO_LARGE", async () => {
    const chained = `WITH 'a' AS s ${"WITH s + s AS s ".repeat(40)}RETURN size(s) AS n`;
    for (const query of [chained, "RETURN size(reduce(s = 'a', i IN range(1, 40) | s + s)) AS n"]) {
      const o = await observe(query);
      assert.match(assertDetailError(o.res, 400, "QUERY_TOO_LARGE"), /string of more than/);
      assertResponsive(o);
    }
    // List doubling ends at the list budget or, in this small worker heap, at the memory budget first.
    const o = await observe("RETURN size(reduce(l = [1], i IN range(1, 40) | l + l)) AS n");
    assertDetailError(o.res, 400, "QUERY_TOO_LARGE");
    assertResponsive(o);
  });

  test("10,000-deep parentheses, lists, maps, NOTs and unary minus are 400 INVALID_INPUT", async () => {
    const n = 10_000;
    const queries = [
      `RETURN ${"(".repeat(n)}1${")".repeat(n)} AS x`,
      `RETURN ${"[".repeat(n)}1${"]".repeat(n)} AS x`,
      `RETURN ${"{a: ".repeat(n)}1${"}".repeat(n)} AS x`,
      `RETURN ${"NOT ".repeat(n)}true AS x`,
      `RETURN ${"- ".repeat(n)}1 AS x`,
      `RETURN ${Array.from({ length: n }, () => "1").join(" + ")} AS x`,
    ];
    for (const query of queries) {
      const o = await observe(query);
      assert.match(assertDetailError(o.res, 400, "INVALID_INPUT"), /nested too deeply/);
      assertResponsive(o);
    }
  });

  test("5,000-deep params are 400 INVALID_INPUT", async () => {
    for (const deep of [`${"[".repeat(5_000)}1${"]".repeat(5_000)}`, `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`]) {
      const o = await observe("RETURN $p AS p", `{"p":${deep}}`);
      // The body's nesting limit (64 levels, checked before parsing) refuses them before the engine's own.
      assert.match(assertDetailError(o.res, 400, "INVALID_INPUT"), /nested more than 64 levels/);
      assertResponsive(o);
    }
  });

  test("a value built 100,000 levels deep cannot be returned: 400 QUERY_TOO_LARGE", async () => {
    const o = await observe("RETURN reduce(acc = [], i IN range(1, 100000) | [acc]) AS deep");
    assertDetailError(o.res, 400, "QUERY_TOO_LARGE");
    assertResponsive(o);
  });

  test("a query the engine cannot interrupt (one regex match let past its budget) is stopped by the hard deadline: 400 QUERY_TIMEOUT", async () => {
    const o = await observe(UNINTERRUPTIBLE, UNINTERRUPTIBLE_PARAMS);
    assert.match(assertDetailError(o.res, 400, "QUERY_TIMEOUT"), /hard deadline/);
    assertResponsive(o);
    assertServedMeanwhile(o);
  });

  test("after every hostile query the graph is intact and a replaced worker serves queries", async () => {
    assert.deepEqual(await g.rows("c", "MATCH (n:N) RETURN count(n) AS n"), [{ n: 601 }]);
    // Both workers answer: two concurrent queries of two organizations.
    const [mine, theirs] = await Promise.all([g.rows("c", "MATCH (n:N {i: 7}) RETURN n.i AS i"), other.rows("o", "MATCH (n) RETURN count(n) AS n")]);
    assert.deepEqual(mine, [{ i: 7 }]);
    assert.deepEqual(theirs, [{ n: 1 }]);
  });

  test("a write killed by the hard deadline is rolled back", async () => {
    const res = await g.query("c", `MATCH (n:N) SET n.touched = true WITH count(n) AS k ${UNINTERRUPTIBLE}`, { s: randomAb(65_536) });
    assertDetailError(res, 400, "QUERY_TIMEOUT");
    assert.deepEqual(await g.rows("c", "MATCH (n:N) WHERE n.touched RETURN count(n) AS n"), [{ n: 0 }]);
  });
});

describe("graph area isolation: a query that outgrows its worker's heap", () => {
  // Its own app, with a deadline it cannot reach: on a loaded machine the heap fills slowly (the
  // worker yields the cores), and with the 5 s budget above it once ended QUERY_TIMEOUT in CI.
  let t: TestApp;
  let other: GraphClient;
  before(async () => {
    ({ t, other } = await startHostileApp({ GRAPH_QUERY_TIMEOUT_MS: "300000", GRAPH_WORKER_MEMORY_MB: "128" }));
  });
  after(async () => t.close());
  const observe = (query: string, rawParams?: string): Promise<Observed> => observeOn(t, other, query, rawParams);

  test("a query that outgrows its worker's heap is 400 QUERY_TOO_LARGE", async () => {
    // range(i, ...) is not a constant, so each row builds its own 2,000,000-element list.
    const o = await observe("UNWIND range(1, 50) AS i WITH collect(range(i, i + 2000000)) AS big RETURN size(big) AS n");
    assert.match(assertDetailError(o.res, 400, "QUERY_TOO_LARGE"), /memory/);
    assertResponsive(o);
  });
});

describe("graph area per-organization concurrency limit", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ GRAPH_QUERY_TIMEOUT_MS: "1000", GRAPH_MAX_CONCURRENT_PER_ORG: "2" });
    await createGraphDatabase(t, "busy");
  });
  after(async () => t.close());

  test("beyond GRAPH_MAX_CONCURRENT_PER_ORG queries in flight: 429 RATE_LIMITED with Retry-After; others are served", async () => {
    const g = graphClient(t, "busy");
    const slow = "UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS n";
    const first = g.query("c", slow);
    const second = g.query("c", slow);
    await new Promise((r) => setTimeout(r, 100));
    const third = await g.query("c", "RETURN 1 AS one");
    assertDetailError(third, 429, "RATE_LIMITED");
    assert.equal(third.headers.get("retry-after"), "1");

    const { key } = await t.newOrgKey();
    await createGraphDatabase(t, "elsewhere", key);
    assert.deepEqual(await graphClient(t, "elsewhere", key).rows("c", "RETURN 1 AS one"), [{ one: 1 }], "another organization is not limited");

    assertDetailError(await first, 400, "QUERY_TIMEOUT");
    assertDetailError(await second, 400, "QUERY_TIMEOUT");
    assert.deepEqual(await g.rows("c", "RETURN 1 AS one"), [{ one: 1 }], "the organization is served again once its queries ended");
  });
});
