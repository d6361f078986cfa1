import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";
import { assertDetailError, createGraphDatabase, graphClient, type GraphClient } from "./graph-client.js";

// The default settings: a 30 s query budget, two query workers, two queries in flight per organization.
// A backtracking engine took 2^45 steps on this match: it held its worker until the hard deadline
// (31 s), and two of them from two organizations held both workers (issue 58).
const CATASTROPHIC = `RETURN '${"a".repeat(45)}!' =~ '(a+)+$' AS m`;
// Far below the 30 s budget, far above what a loaded 2-core machine adds to a query of a few ms.
const PROMPT_MS = 5_000;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe("graph area =~: linear-time matching, Java's syntax, clear refusals", () => {
  let t: TestApp;
  const orgs: GraphClient[] = [];
  before(async () => {
    t = await startTestApp();
    for (const [i, key] of [t.key, (await t.newOrgKey()).key, (await t.newOrgKey()).key].entries()) {
      await createGraphDatabase(t, `regex${i}`, key);
      orgs.push(graphClient(t, `regex${i}`, key));
    }
  });
  after(async () => t.close());

  test("two catastrophic patterns from two organizations answer at once, and a third organization's RETURN 1 is not delayed", async () => {
    const [first, second, third] = orgs;
    assert.ok(first && second && third);
    const [a, b, c] = await Promise.all([
      timed(first.rows("c", CATASTROPHIC)),
      timed(second.rows("c", CATASTROPHIC)),
      // Sent a moment later, so that both hostile queries hold a worker when it arrives.
      new Promise((r) => setTimeout(r, 50)).then(() => timed(third.rows("c", "RETURN 1 AS one"))),
    ]);
    assert.deepEqual(a.value, [{ m: false }]);
    assert.deepEqual(b.value, [{ m: false }]);
    assert.deepEqual(c.value, [{ one: 1 }]);
    for (const [what, ms] of [
      ["first catastrophic", a.ms],
      ["second catastrophic", b.ms],
      ["RETURN 1", c.ms],
    ] as const) {
      assert.ok(ms < PROMPT_MS, `${what} answered in ${ms.toFixed(0)} ms`);
    }
  });

  test("patterns match with Java's semantics over stored properties", async () => {
    const [g] = orgs;
    assert.ok(g);
    await g.rows("people", "UNWIND ['Anna', 'anne', 'Bob', 'line\nbreak', 'Zoë'] AS name CREATE (:P {name: name})");
    const names = async (pattern: string): Promise<unknown[]> =>
      (await g.rows("people", "MATCH (p:P) WHERE p.name =~ $re RETURN p.name AS name ORDER BY name", { re: pattern })).map((r) => r.name);
    assert.deepEqual(await names("(?i)ann.*"), ["Anna", "anne"]);
    assert.deepEqual(await names("line.break"), [], "the dot does not match a line break without (?s)");
    assert.deepEqual(await names("(?s)line.break"), ["line\nbreak"]);
    assert.deepEqual(await names("\\p{Lu}\\p{Ll}+"), ["Anna", "Bob", "Zoë"]);
    assert.deepEqual(await names("[\\p{Lower}]+"), ["anne"]);
  });

  test("a backreference or a lookahead is 400 INVALID_INPUT naming the construct", async () => {
    const [g] = orgs;
    assert.ok(g);
    const backref = assertDetailError(await g.query("c", "RETURN 'aa' =~ '(a)\\\\1' AS m"), 400, "INVALID_INPUT");
    assert.match(backref, /UnsupportedError.*backreferences.*linear-time regular expression engine/);
    const lookahead = assertDetailError(await g.query("c", "RETURN 'ab' =~ $p AS m", { p: "(?=a)ab" }), 400, "INVALID_INPUT");
    assert.match(lookahead, /lookahead/);
  });

  test("an invalid pattern is 400 INVALID_INPUT quoting it", async () => {
    const [g] = orgs;
    assert.ok(g);
    const message = assertDetailError(await g.query("c", "RETURN 'a' =~ '(a' AS m"), 400, "INVALID_INPUT");
    assert.match(message, /invalid regular expression '\(a': missing closing \)/);
  });

  test("a match above GRAPH_MAX_REGEX_WORK, or a pattern too large to compile, is 400 QUERY_TOO_LARGE", async () => {
    const [g] = orgs;
    assert.ok(g);
    const costly = await g.query("c", "WITH reduce(s = 'ab', i IN range(1, 17) | s + s) AS s RETURN s =~ '(?s:.*)a[ab]{1000}c' AS m");
    assert.match(assertDetailError(costly, 400, "QUERY_TOO_LARGE"), /exceeds the budget of 20000000 steps/);
    const large = await g.query("c", "RETURN 'x' =~ $p AS m", { p: "x{1000}".repeat(100) });
    assert.match(assertDetailError(large, 400, "QUERY_TOO_LARGE"), /would compile to more than/);
  });
});
