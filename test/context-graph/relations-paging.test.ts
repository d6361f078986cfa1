import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HydraDBClient } from "@hydradb/sdk";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { allRelations, email, githubIssue, relationsPage, slackThread } from "./graph-fixtures.js";

const people = [
  "Grace Hopper works at IBM and lives in Boston.",
  "John Smith works at Microsoft and lives in Seattle.",
  "Alan Turing lives in Paris.",
  "Maria Garcia works at Google.",
];

describe("GET /context/relations", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "rel");
    await ingestApp(t, "rel", [
      ...slackThread,
      email,
      githubIssue,
      ...people.map((text, i) => ({ id: `note-${i}`, type: "note", title: `Note ${i}`, content: { text } })),
      { id: "private-note", type: "note", title: "Private", content: { text: "Alan Turing works at Google." }, acl: ["ada@example.com"] },
    ]);
  });
  after(async () => t.close());

  test("pages through a whole collection with a stable cursor, no group twice, none missed", async () => {
    const everything = await relationsPage(t, { database: "rel", limit: "1000" });
    assert.equal(everything.next, null);
    assert.equal(field(everything.res.body, "data.is_truncated"), false);
    const total = everything.relations.length;
    assert.ok(total > 10, `enough relation groups to page: ${total}`);

    const seen: string[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const page = await relationsPage(t, { database: "rel", limit: "4", ...(cursor === null ? {} : { cursor: String(cursor) }) });
      assert.ok(page.relations.length <= 4);
      assert.equal(field(page.res.body, "data.is_truncated"), page.next !== null);
      seen.push(...page.relations.map((tr) => tr.relations.map((r) => r.relationship_id).join("+")));
      cursor = page.next;
      pages += 1;
    } while (cursor !== null);
    assert.equal(pages, Math.ceil(total / 4));
    assert.equal(new Set(seen).size, seen.length, "no group twice");
    assert.deepEqual(
      seen,
      everything.relations.map((tr) => tr.relations.map((r) => r.relationship_id).join("+")),
    );
  });

  test("a cursor stays valid when new items are written between pages", async () => {
    const first = await relationsPage(t, { database: "rel", limit: "3" });
    assert.ok(first.next !== null);
    const rest = await allRelations(t, { database: "rel" });
    await ingestApp(t, "rel", [{ id: "late-note", type: "note", title: "Late", content: { text: "Cy Cole lives in Paris." } }]);
    const second = await relationsPage(t, { database: "rel", limit: "3", cursor: String(first.next) });
    const position = rest.findIndex((tr) => tr.relations[0]?.relationship_id === second.relations[0]?.relations[0]?.relationship_id);
    assert.equal(position, 3, "the next page starts right after the first");
  });

  test("one item by id or source_id; acl hides other principals' items; unknown id is empty", async () => {
    const byId = await allRelations(t, { database: "rel", id: "note-0" });
    const bySource = await allRelations(t, { database: "rel", source_id: "note-0" });
    assert.deepEqual(byId, bySource);
    assert.ok(byId.some((tr) => tr.relations.some((r) => r.canonical_predicate === "works_at")));
    assert.ok(byId.every((tr) => tr.chunk_id.length > 0));
    assert.equal((await allRelations(t, { database: "rel", id: "private-note" })).length > 0, true);
    assert.deepEqual(await allRelations(t, { database: "rel", id: "private-note", acl: "bob@example.com" }), []);
    assert.deepEqual(await allRelations(t, { database: "rel", id: "no-such-item" }), []);
  });

  test("limit and cursor are validated; an unknown database is 404", async () => {
    for (const query of [{ limit: "0" }, { limit: "1001" }, { cursor: "-1" }, { cursor: "abc" }] as Array<Record<string, string>>) {
      const res = await t.request("GET", "/context/relations", { query: { database: "rel", ...query } });
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    const missing = await t.request("GET", "/context/relations", { query: { database: "nope" } });
    assert.equal(missing.status, 404);
    assert.equal(field(missing.body, "error.code"), "DATABASE_NOT_FOUND");
  });

  test("the vendor SDK's relations call works unchanged, cursor included", async () => {
    const client = new HydraDBClient({ token: t.key, baseUrl: t.baseUrl });
    const first = await client.context.relations({ tenantId: "rel", limit: 2 });
    assert.equal(first.success, true);
    assert.equal(first.data?.relations.length, 2);
    const triplet = first.data?.relations[0];
    assert.ok(triplet?.source.entityId && triplet.target.entityId && triplet.relations[0]?.relationshipId);
    assert.equal(typeof first.data?.nextCursor, "number");
    const second = await client.context.relations({ tenantId: "rel", limit: 2, cursor: first.data?.nextCursor ?? null });
    assert.notEqual(second.data?.relations[0]?.relations[0]?.relationshipId, triplet.relations[0]?.relationshipId);
    const one = await client.context.relations({ tenantId: "rel", subTenantId: "rel", id: "gmail:email:msg-1", type: "knowledge" });
    assert.ok((one.data?.relations.length ?? 0) > 0);
    assert.ok(one.data?.relations.every((tr) => tr?.relations.every((r) => r.timestamp instanceof Date)));
  });
});
