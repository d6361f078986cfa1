import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { OrgDigest } from "../helpers/org-digest.js";
import { startPopulatedWorld, waitForIdleJobs, type PopulatedWorld } from "../helpers/populated-org.js";
import type { JsonSchema } from "../helpers/schema-arbitrary.js";
import { describeRequest, hintsFor, operationsOf, type FuzzRequest, type OpenApiPaths, type Operation } from "./fuzz-operations.js";
import { isCypherRoute, isMultipartRoute, malformedRequests, MUTABLE_CONTENT_TYPES, wellTypedRequests } from "./fuzz-mutations.js";

// Seeded: FUZZ_SEED reproduces a run; without it a fresh seed is drawn and printed.
const SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
// Runs per operation: up to these, fewer when the machine is slow. The requests get a time budget
// (FUZZ_BUDGET_MS, default 70 s, so the file stays near 90 s with its setup); each operation gets its
// share of what is left, and never fewer than the floor runs. A seed replays the same requests: fewer
// runs only cut the sequence shorter.
const WELL_TYPED_RUNS = 6;
const MALFORMED_RUNS = 20;
const FLOOR_RUNS = { wellTyped: 2, malformed: 6 };
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 70_000);
const REQUEST_DEADLINE_MS = 20_000;
const HEALTH_DEADLINE_MS = 2_000;

/** Routes the document leaves out but a key reaches: fuzzed from these schemas. */
const HIDDEN_OPERATIONS: Operation[] = [
  {
    method: "POST",
    template: "/mcp",
    parameters: [{ name: "database", in: "query", schema: { type: "string" } }],
    bodies: {
      "application/json": {
        type: "object",
        properties: {
          jsonrpc: { enum: ["2.0", "1.0"] },
          id: { type: "integer" },
          method: { enum: ["initialize", "tools/list", "tools/call", "resources/list", "nope"] },
          params: { type: "object", properties: { name: { enum: ["list", "inspect", "query", "delete", "graph_query"] }, arguments: { type: "object" } } },
        },
      } satisfies JsonSchema,
    },
  },
];

/** Only these answer without a key or are not API routes; they are not fuzzed. */
const NOT_FUZZED = new Set(["/openapi.json", "/healthz", "/readyz"]);
const notFuzzedUrl = (url: string): boolean => NOT_FUZZED.has(url) || url.startsWith("/docs") || url.startsWith("/console");

const seedOf = (name: string): number => {
  let h = SEED;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
};

/** Mutating operations last, so the populated objects serve most of the run before something accepted deletes them. */
const order = (op: Operation): number => (op.method === "DELETE" ? 2 : op.method === "GET" ? 0 : 1);

describe(`randomized input (FUZZ_SEED=${SEED}): never a 5xx or a hang, rejected requests change nothing`, () => {
  let w: PopulatedWorld;
  let digest: OrgDigest;
  let ops: Operation[] = [];
  const started = Date.now();
  let requests = 0;
  const answered = { accepted: 0, changedByAccepted: 0, rejected: 0 };
  const contractProblems = new Map<string, string>();

  before(async () => {
    console.log(`randomized input: FUZZ_SEED=${SEED}`);
    w = await startPopulatedWorld({
      RATE_LIMIT_PER_MINUTE: "0",
      BODY_LIMIT_BYTES: "262144",
      GRAPH_QUERY_TIMEOUT_MS: "1500",
      GRAPH_MAX_CONCURRENT_PER_ORG: "4",
      WEBHOOK_MAX_ATTEMPTS: "1",
      CONNECTOR_GITHUB_API_URL: "http://127.0.0.1:9",
      CONNECTOR_LINEAR_API_URL: "http://127.0.0.1:9",
      CONNECTOR_NOTION_API_URL: "http://127.0.0.1:9",
      CONNECTOR_GMAIL_API_URL: "http://127.0.0.1:9",
      CONNECTOR_GOOGLE_TOKEN_URL: "http://127.0.0.1:9",
    });
    // No job runs from here on: stored data changes only inside requests, so a digest taken right
    // after an answer is exactly what that request did.
    await waitForIdleJobs(w.t);
    await w.t.app.worker.stop(10_000);
    digest = new OrgDigest(w.t.app);
    const doc = (await (await fetch(`${w.t.baseUrl}/openapi.json`)).json()) as OpenApiPaths;
    ops = [...operationsOf(doc).filter((op) => !notFuzzedUrl(op.template)), ...HIDDEN_OPERATIONS].sort(
      (a, b) => order(a) - order(b) || `${a.template} ${a.method}`.localeCompare(`${b.template} ${b.method}`),
    );
  });
  after(async () => {
    console.log(
      `randomized input: ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (FUZZ_SEED=${SEED}): ` +
        `${answered.rejected} rejected, each checked unchanged; ${answered.accepted} accepted, ${answered.changedByAccepted} of them changed stored data`,
    );
    // Statuses the framework answers before a route runs (413, 414, 431) are often undeclared: reported, not asserted.
    for (const [where, problem] of contractProblems) console.log(`response contract: ${where}: ${problem.slice(0, 200)}`);
    await w.close();
  });

  test("every registered route has generators: documented operations, the hidden ones listed here, and known body types", () => {
    const fuzzed = new Set(ops.map((op) => `${op.method} ${op.template}`));
    const routes = w.t.app.server.routeTable.filter((r) => r.method !== "HEAD" && !notFuzzedUrl(r.url));
    const missing = routes.map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, "{$1}")}`).filter((name) => !fuzzed.has(name));
    // GET/DELETE /mcp answer 405 to everyone with a key: no input to vary.
    assert.deepEqual(
      missing.filter((m) => m !== "GET /mcp" && m !== "DELETE /mcp"),
      [],
      "registered routes without generators",
    );
    const unknownBodies = ops.flatMap((op) =>
      Object.keys(op.bodies)
        .filter((type) => !MUTABLE_CONTENT_TYPES.has(type))
        .map((type) => `${op.method} ${op.template} ${type}`),
    );
    assert.deepEqual(unknownBodies, [], "body types the mutations cannot break");
    assert.ok(ops.some(isCypherRoute) && ops.some(isMultipartRoute), "the Cypher and multipart routes are found");
    assert.ok(ops.length >= 70, `operations: ${ops.length}`);
  });

  const send = async (op: Operation, req: FuzzRequest): Promise<{ status: number; text: string }> => {
    const url = new URL(req.path, w.t.baseUrl);
    for (const [k, v] of req.query) url.searchParams.append(k, v);
    const headers = { "API-Version": "2", Authorization: `Bearer ${w.t.key}`, ...req.headers };
    let res: Response;
    try {
      res = await fetch(url, { method: req.method, headers, body: req.body, signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
    } catch (err) {
      throw new Error(`no answer within ${REQUEST_DEADLINE_MS} ms (${String(err)}): ${describeRequest(req)}`);
    }
    const text = await res.text();
    requests++;
    if (HIDDEN_OPERATIONS.includes(op)) return { status: res.status, text };
    try {
      w.t.checkContract(req.method, url.pathname, { status: res.status, headers: res.headers, text });
    } catch (err) {
      contractProblems.set(`${op.method} ${op.template} ${res.status}`, String(err));
    }
    return { status: res.status, text };
  };

  test("every operation, well-typed and malformed", async () => {
    const orgId = w.t.orgId;
    let baseline = await digest.of(orgId);
    const hints = hintsFor(w.objects);
    let op: Operation | undefined;
    const check = async (req: FuzzRequest): Promise<void> => {
      if (op === undefined) throw new Error("no operation");
      const res = await send(op, req);
      if (res.status >= 500 || res.status < 100) throw new Error(`answered ${res.status}: ${res.text.slice(0, 500)}\nrequest: ${describeRequest(req)}`);
      if (res.status < 400) {
        // Accepted: what it stored is the new baseline (the query log of a query included).
        await w.t.app.queryLog.flush();
        const after = await digest.of(orgId);
        answered.accepted++;
        if (after !== baseline) answered.changedByAccepted++;
        baseline = after;
        return;
      }
      answered.rejected++;
      const now = await digest.of(orgId);
      if (now !== baseline)
        throw new Error(`a request answered ${res.status} changed stored data: ${res.text.slice(0, 300)}\nrequest: ${describeRequest(req)}`);
    };
    const loopStarted = Date.now();
    let done = 0;
    for (op of ops) {
      const name = `${op.method} ${op.template}`;
      // Runs this operation can afford: its share of the budget left, at the pace measured so far.
      const spent = Date.now() - loopStarted;
      const perRequest = requests > 0 ? spent / requests : 20;
      const share = Math.max(0, BUDGET_MS - spent) / (ops.length - done) / perRequest;
      const scale = Math.min(1, share / (WELL_TYPED_RUNS + MALFORMED_RUNS));
      done++;
      for (const [kind, arbitrary, numRuns] of [
        ["well-typed", wellTypedRequests(op, w.objects, hints), Math.max(FLOOR_RUNS.wellTyped, Math.floor(WELL_TYPED_RUNS * scale))],
        ["malformed", malformedRequests(op, w.objects, hints), Math.max(FLOOR_RUNS.malformed, Math.floor(MALFORMED_RUNS * scale))],
      ] as const) {
        const seed = seedOf(`${name} ${kind}`);
        const result = await fc.check(fc.asyncProperty(arbitrary, check), { seed, numRuns, endOnFailure: true });
        if (result.failed) {
          const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          assert.fail(
            `${name} (${kind}): ${error}\nreproduce: FUZZ_SEED=${SEED} (fast-check seed ${result.seed}, path ${result.counterexamplePath ?? "?"}, ${numRuns} runs)`,
          );
        }
      }
      const health = await fetch(`${w.t.baseUrl}/healthz`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS) });
      assert.equal(health.status, 200, `/healthz after ${name}`);
    }
    // The store is ready; the only thing /readyz may miss is the workers this suite stopped.
    const ready = await fetch(`${w.t.baseUrl}/readyz`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS) });
    const readiness = (await ready.json()) as { status: string; workers?: { running: boolean } };
    assert.deepEqual([ready.status, readiness.status, readiness.workers?.running], [503, "workers not running", false], JSON.stringify(readiness));
    // The digest sees changes: some accepted requests stored something (so an unchanged digest after a refusal means something).
    assert.ok(answered.changedByAccepted > 0 && answered.rejected > answered.accepted, JSON.stringify(answered));
    assert.ok(requests >= ops.length * (FLOOR_RUNS.wellTyped + FLOOR_RUNS.malformed), `requests sent: ${requests}`);
  });
});
