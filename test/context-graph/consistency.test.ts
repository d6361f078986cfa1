import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { allRelations, email, membersById, subgraph, type Triplet } from "./graph-fixtures.js";

const doc = (id: string, text: string, ids: string[] = []) => ({
  id,
  type: "document",
  title: id,
  content: { text },
  ...(ids.length > 0 ? { relations: { ids } } : {}),
});

/** A stable fingerprint of a relation triplet, entity ids included. */
const key = (tr: Triplet): string =>
  `${tr.source.entity_id}|${tr.relations
    .map((r) => r.canonical_predicate)
    .sort()
    .join(",")}|${tr.target.entity_id}`;

describe("graph consistency under upsert and delete", () => {
  let t: TestApp;
  const rowCount = async (table: "context_graph_links" | "context_graph_triplets" | "context_graph_entities" | "context_graph_mentions"): Promise<number> => {
    const row = await t.app.store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const entityNames = async (): Promise<string[]> =>
    (await t.app.store.db.selectFrom("context_graph_entities").select("name").execute()).map((r) => r.name).sort();

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "cons");
  });
  after(async () => t.close());

  test("deleting an item removes exactly its edges, its orphaned entities, and leaves the others", async () => {
    await ingestApp(t, "cons", [
      doc("keep-1", "Ada Lovelace works at Acme Corp.", ["keep-2"]),
      doc("keep-2", "Ada Lovelace lives in London."),
      doc("gone", "Grace Hopper works at IBM and lives in Boston.", ["keep-1"]),
    ]);
    const before = new Set((await allRelations(t, { database: "cons" })).map(key));
    const gone = new Set((await allRelations(t, { database: "cons", id: "gone" })).map(key));
    assert.ok(gone.size > 0);
    assert.ok((await entityNames()).includes("Grace Hopper"));
    const res = await t.request("DELETE", "/context", { body: { database: "cons", ids: ["gone"] } });
    assert.equal(res.status, 200, res.text);

    const after = new Set((await allRelations(t, { database: "cons" })).map(key));
    assert.deepEqual([...after].sort(), [...before].filter((k) => !gone.has(k) || [...after].includes(k)).sort());
    assert.deepEqual(await allRelations(t, { database: "cons", id: "gone" }), []);
    const names = await entityNames();
    for (const orphan of ["Grace Hopper", "IBM", "Boston"]) assert.ok(!names.includes(orphan), `${orphan} is gone`);
    assert.ok(names.includes("Ada Lovelace") && names.includes("London"), "entities other items mention stay");
    const keep = await subgraph(t, "keep-1", { database: "cons" });
    assert.deepEqual(
      keep.data.sources.map((m) => m.source_id),
      ["keep-1", "keep-2"],
      "no member reached over the deleted item's link",
    );
  });

  test("replacing an item (upsert) swaps exactly its edges and entities", async () => {
    await ingestApp(t, "cons", [doc("swap", "Maria Garcia works at Google.", ["keep-1"])]);
    const others = new Set((await allRelations(t, { database: "cons" })).map(key));
    for (const k of (await allRelations(t, { database: "cons", id: "swap" })).map(key)) others.delete(k);
    const res = await t.request("POST", "/context/ingest", {
      body: { type: "knowledge", database: "cons", upsert: true, app_knowledge: JSON.stringify([doc("swap", "Cy Cole lives in Paris.", ["keep-2"])]) },
    });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, "cons", ["swap"]);
    const mine = (await allRelations(t, { database: "cons", id: "swap" })).map(key);
    assert.ok(mine.some((k) => k.includes("lives_in")));
    const all = new Set((await allRelations(t, { database: "cons" })).map(key));
    for (const k of mine) all.delete(k);
    assert.deepEqual([...all].sort(), [...others].sort(), "the other items' triplets are untouched");
    const names = await entityNames();
    assert.ok(!names.includes("Maria Garcia") && !names.includes("Google"), "entities only the old version mentioned are gone");
    assert.ok(names.includes("Cy Cole") && names.includes("Paris"));
    const sg = membersById((await subgraph(t, "swap", { database: "cons", depth: "1" })).data);
    assert.equal(sg.has("keep-2"), true);
    assert.equal(sg.get("keep-1"), undefined, "the old link is gone");
  });

  test("deleting everything leaves no graph row behind; people are forgotten too", async () => {
    await ingestApp(t, "cons", [email]);
    const ids = ["keep-1", "keep-2", "swap", "gmail:email:msg-1"];
    const res = await t.request("DELETE", "/context", { body: { database: "cons", ids } });
    assert.equal(res.status, 200, res.text);
    for (const table of ["context_graph_links", "context_graph_triplets", "context_graph_entities", "context_graph_mentions"] as const) {
      assert.equal(await rowCount(table), 0, `${table}: ${JSON.stringify(await t.app.store.db.selectFrom(table).selectAll().execute())}`);
    }
    const people = await t.app.store.db.selectFrom("context_graph_people").select("entity_id").execute();
    assert.deepEqual(people, []);
  });

  test("a person who gains a stronger key keeps one entity: earlier items' relations are repointed; ids are stable", async () => {
    const slack = {
      kind: "message",
      provider: "slack",
      external_id: "m-grace",
      created_at: "2024-03-01T10:00:00Z",
      fields: { user: { name: "Grace Hopper", username: "grace" }, text: "Shipping today" },
    };
    await ingestApp(t, "cons", [slack]);
    const senderOf = async (id: string): Promise<string | undefined> =>
      (await allRelations(t, { database: "cons", id })).find((tr) => tr.relations[0]?.canonical_predicate === "sent")?.source.entity_id;
    const before = await senderOf("slack:message:m-grace");
    assert.ok(before);
    const mail = {
      kind: "email",
      provider: "gmail",
      external_id: "m-grace-mail",
      created_at: "2024-03-02T10:00:00Z",
      fields: { subject: "Hi", from: "Grace Hopper <grace@example.com>", to: "ada@example.com", body: "Hello" },
    };
    await ingestApp(t, "cons", [mail]);
    const fromMail = await senderOf("gmail:email:m-grace-mail");
    assert.ok(fromMail);
    assert.equal(await senderOf("slack:message:m-grace"), fromMail, "the Slack message's sender was repointed to the merged person");
    const graces = (await t.app.store.db.selectFrom("context_graph_entities").select("entity_id").where("name", "=", "Grace Hopper").execute()).map(
      (r) => r.entity_id,
    );
    assert.deepEqual(graces, [fromMail], "one entity for the person");
    const res = await t.request("POST", "/context/ingest", {
      body: { type: "knowledge", database: "cons", upsert: true, app_knowledge: JSON.stringify([slack]) },
    });
    assert.equal(res.status, 202);
    await waitTerminal(t, "cons", ["slack:message:m-grace"]);
    assert.equal(await senderOf("slack:message:m-grace"), fromMail, "re-ingesting resolves to the same id");
    await t.request("DELETE", "/context", { body: { database: "cons", ids: ["slack:message:m-grace", "gmail:email:m-grace-mail"] } });
  });

  test("deleting a database purges its graph", async () => {
    await createReadyDatabase(t, "purge-me");
    await ingestApp(t, "purge-me", [doc("p1", "Alan Turing lives in Paris.", ["p2"]), doc("p2", "Maria Garcia works at Google.")]);
    assert.ok((await rowCount("context_graph_triplets")) > 0);
    assert.equal((await t.request("DELETE", "/databases", { query: { database: "purge-me" } })).status < 300, true);
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 100 && (await rowCount("context_graph_triplets")) > 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    for (const table of ["context_graph_links", "context_graph_triplets", "context_graph_entities", "context_graph_mentions"] as const)
      assert.equal(await rowCount(table), 0, table);
  });
});
