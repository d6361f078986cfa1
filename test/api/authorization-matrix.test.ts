import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { field, type HttpResult } from "../helpers/harness.js";
import { changedTables, OrgDigest } from "../helpers/org-digest.js";
import { MARKER, startPopulatedWorld, waitForIdleJobs, type OrgObjects, type PopulatedWorld } from "../helpers/populated-org.js";
import { publicReason, ROUTE_FIXTURES, type RouteRequest } from "./authorization-routes.js";

interface Credential {
  readonly name: string;
  readonly headers: () => Record<string, string>;
}

/** The same kinds of objects, under names no organization has ever used. */
function missingObjects(o: OrgObjects): OrgObjects {
  return {
    ...o,
    database: "never_db",
    collection: "never_team",
    itemId: "never-item",
    fileId: "never-file",
    memoryId: "never-mem",
    requestId: randomUUID(),
    deliveryId: randomUUID(),
    connectorId: randomUUID(),
    resourceId: "C0NEVER",
    graphDatabase: "never_graph",
    graphCollection: "never",
  };
}

/** The error code of an envelope or `{detail}` answer, or null. */
function errorCode(res: HttpResult): unknown {
  return field(res.body, "error.code") ?? field(res.body, "detail.error_code") ?? null;
}

/** Routes whose failed authentication the spec states as 403: the Cypher graph area. */
const authFailureStatus = (url: string): number => (url.startsWith("/byog/") ? 403 : 401);

describe("authorization matrix: every registered route x every kind of bad or foreign credential", () => {
  let w: PopulatedWorld;
  let digest: OrgDigest;
  let revokedKey = "";
  const started = Date.now();

  before(async () => {
    // Hundreds of refused keys from one address: past AUTH_FAILURES_PER_MINUTE they would be 429 (see rate-limit.test.ts).
    w = await startPopulatedWorld({ AUTH_FAILURES_PER_MINUTE: "100000" });
    digest = new OrgDigest(w.t.app);
    const revoked = await w.t.app.orgs.createKey(w.t.orgId, "revoked");
    assert.equal(await w.t.app.orgs.revokeKey(revoked.row.id), true);
    revokedKey = revoked.key;
  });
  after(async () => {
    console.log(`authorization matrix: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await w.close();
  });

  /** Through the harness (which checks each answer against /openapi.json), or plainly for routes the document leaves out. */
  const send = async (method: string, hidden: boolean, req: RouteRequest, headers: Record<string, string>): Promise<HttpResult> => {
    const body = method === "GET" || method === "HEAD" ? undefined : req.body;
    const allHeaders = { ...(req.headers ?? {}), ...headers };
    if (!hidden) return w.t.request(method, req.path, { key: null, headers: allHeaders, query: req.query, body });
    const url = new URL(req.path, w.t.baseUrl);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: { "API-Version": "2", ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...allHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // not JSON (an event stream): read as text
      parsed = {};
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  const credentials = (): Credential[] => [
    { name: "no key", headers: () => ({}) },
    { name: "malformed key", headers: () => ({ Authorization: `Bearer  ${w.t.key}` }) },
    { name: "malformed scheme", headers: () => ({ Authorization: `Basic ${Buffer.from(`x:${w.t.key}`).toString("base64")}` }) },
    { name: "wrong key", headers: () => ({ Authorization: `Bearer csk_${randomUUID().replaceAll("-", "")}` }) },
    { name: "revoked key", headers: () => ({ Authorization: `Bearer ${revokedKey}` }) },
  ];

  test("every route is in the fixture table or the public allowlist, and the tables name only registered routes", () => {
    const table = w.t.app.server.routeTable;
    const names = new Set(table.map((r) => `${r.method} ${r.url}`));
    const escaped = table.filter((r) => r.method !== "HEAD" && ROUTE_FIXTURES[`${r.method} ${r.url}`] === undefined && publicReason(r.url) === undefined);
    assert.deepEqual(escaped, [], "routes with neither a fixture nor a public reason");
    const headless = table.filter((r) => r.method === "HEAD" && !names.has(`GET ${r.url}`) && publicReason(r.url) === undefined);
    assert.deepEqual(headless, [], "HEAD routes without a GET route to take the fixture from");
    const stale = Object.keys(ROUTE_FIXTURES).filter((k) => !names.has(k));
    assert.deepEqual(stale, [], "fixtures of routes that are not registered");
    const publicFixtures = Object.keys(ROUTE_FIXTURES).filter((k) => publicReason(k.split(" ")[1] ?? "") !== undefined);
    assert.deepEqual(publicFixtures, [], "a route cannot be both public and authenticated");
  });

  test("bad credentials are refused and a foreign organization's key sees nothing, on every route, and nothing changes", async () => {
    const o = w.objects;
    const missing = missingObjects(o);
    const problems: string[] = [];
    const before = await digest.byTable(w.t.orgId);
    let checked = 0;
    let foreignNotFound = 0;
    for (const route of w.t.app.server.routeTable) {
      if (publicReason(route.url) !== undefined) continue;
      const fixture = ROUTE_FIXTURES[`${route.method === "HEAD" ? "GET" : route.method} ${route.url}`];
      if (fixture === undefined) continue; // reported by the coverage test
      const name = `${route.method} ${route.url}`;
      const req = fixture(o);
      for (const credential of credentials()) {
        const res = await send(route.method, route.hidden, req, credential.headers());
        checked++;
        const expected = authFailureStatus(route.url);
        if (res.status !== expected) problems.push(`${name} with ${credential.name}: ${res.status}, expected ${expected}: ${res.text.slice(0, 200)}`);
        else if (route.method !== "HEAD" && errorCode(res) !== (expected === 401 ? "UNAUTHORIZED" : "FORBIDDEN"))
          problems.push(`${name} with ${credential.name}: code ${String(errorCode(res))}`);
        if (res.text.includes(MARKER)) problems.push(`${name} with ${credential.name}: the body holds the organization's data`);
      }
      // Another organization: a fresh one per route, so what one route creates there cannot change another's answer.
      const other = await w.t.newOrgKey();
      const auth = { Authorization: `Bearer ${other.key}` };
      const foreign = await send(route.method, route.hidden, req, auth);
      const absent = await send(route.method, route.hidden, fixture(missing), auth);
      checked += 2;
      if (foreign.status === 404) foreignNotFound++;
      if (foreign.status >= 500) problems.push(`${name} with another organization's key: ${foreign.status} ${foreign.text.slice(0, 200)}`);
      if (foreign.status !== absent.status || errorCode(foreign) !== errorCode(absent))
        problems.push(
          `${name} with another organization's key: ${foreign.status} ${String(errorCode(foreign))} on real objects, ` +
            `${absent.status} ${String(errorCode(absent))} on names that never existed`,
        );
      if (foreign.text.includes(MARKER) || foreign.text.includes(w.t.orgId))
        problems.push(`${name} with another organization's key: the body holds the organization's data: ${foreign.text.slice(0, 300)}`);
      await waitForIdleJobs(w.t);
      const now = await digest.byTable(w.t.orgId);
      const changed = changedTables(before, now);
      if (changed.length > 0) {
        problems.push(`${name}: the organization's data changed (${changed.join(", ")})`);
        Object.assign(before, now);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 300, `requests checked: ${checked}`);
    // Most routes act on a named object, which the other organization must not find.
    assert.ok(foreignNotFound >= 40, `routes answering 404 to the other organization: ${foreignNotFound}`);
  });

  test("signed file URLs: the token alone downloads, a tampered or expired one is 403 and reveals nothing", async () => {
    const token = w.objects.fileToken;
    const ok = await w.t.request("GET", `/context/files/${token}`, { key: null });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, new RegExp(MARKER));
    const flip = (s: string, i: number): string => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const tampered of [flip(token, 2), flip(token, token.length - 3), `${token}x`, token.slice(0, -4), "not-a-token", "..%2F..%2Fetc%2Fpasswd"]) {
      const res = await w.t.request("GET", `/context/files/${tampered}`, { key: null });
      assert.ok(res.status === 403 || res.status === 404, `${tampered}: ${res.status} ${res.text}`);
      if (res.status === 403) assert.equal(errorCode(res), "FILE_URL_INVALID", res.text);
      assert.doesNotMatch(res.text, new RegExp(MARKER));
    }
    w.t.clock.advance(3601_000);
    const expired = await w.t.request("GET", `/context/files/${token}`, { key: null });
    assert.equal(expired.status, 403, expired.text);
    assert.equal(errorCode(expired), "FILE_URL_EXPIRED");
    assert.doesNotMatch(expired.text, new RegExp(MARKER));
  });
});
