import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { decodeTerms } from "../../src/features/items/chunk-terms.js";

describe("ingest validation, upsert and bad input", () => {
  let t: TestApp;
  let itemCount: () => Promise<number>;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "rules", {
      database_metadata_schema: [{ name: "priority", data_type: "INT64", enable_match: true }],
    });
    itemCount = async () => (await t.app.store.db.selectFrom("context_items").select("id").execute()).length;
  });
  after(async () => t.close());

  const app = (id: string, text: string) => ({ id, type: "note", content: { text } });

  test("request-level errors get their codes and store nothing", async () => {
    const before = await itemCount();
    const cases: Array<[string, Record<string, string>, number, string, number?]> = [
      ["no database", { type: "knowledge", app_knowledge: JSON.stringify([app("a", "x")]) }, 400, "INVALID_INPUT"],
      ["unknown database", { type: "knowledge", database: "nope", app_knowledge: JSON.stringify([app("a", "x")]) }, 404, "DATABASE_NOT_FOUND"],
      ["bad type", { type: "both", database: "rules", app_knowledge: "[]" }, 400, "INVALID_INPUT"],
      ["nothing to ingest", { type: "knowledge", database: "rules" }, 400, "INVALID_INPUT"],
      ["app_knowledge not JSON", { type: "knowledge", database: "rules", app_knowledge: "{nope" }, 400, "INVALID_INPUT"],
      ["app_knowledge a JSON object", { type: "knowledge", database: "rules", app_knowledge: JSON.stringify(app("a", "x")) }, 422, "VALIDATION_ERROR"],
      ["memories missing", { type: "memory", database: "rules" }, 400, "INVALID_INPUT"],
      ["memory with neither", { type: "memory", database: "rules", memories: JSON.stringify([{ id: "m" }]) }, 422, "VALIDATION_ERROR"],
      [
        "memory with both",
        { type: "memory", database: "rules", memories: JSON.stringify([{ text: "a", user_assistant_pairs: [{ user: "u", assistant: "a" }] }]) },
        422,
        "VALIDATION_ERROR",
      ],
      ["memory metadata object", { type: "memory", database: "rules", memories: JSON.stringify([{ text: "a", metadata: { k: 1 } }]) }, 400, "INVALID_INPUT"],
      ["memory bad expiry", { type: "memory", database: "rules", memories: JSON.stringify([{ text: "a", expiry_time: -5 }]) }, 400, "INVALID_INPUT"],
      ["bad upsert", { type: "knowledge", database: "rules", upsert: "maybe", app_knowledge: JSON.stringify([app("a", "x")]) }, 400, "INVALID_INPUT"],
      [
        "top-level metadata of the wrong declared type",
        { type: "knowledge", database: "rules", metadata: JSON.stringify({ priority: "high" }), app_knowledge: JSON.stringify([app("a", "x")]) },
        422,
        "VALIDATION_ERROR",
      ],
      ["alias conflict", { type: "knowledge", database: "rules", tenant_id: "other", app_knowledge: JSON.stringify([app("a", "x")]) }, 400, "INVALID_INPUT"],
    ];
    for (const [name, fields, status, code] of cases) {
      const res = await ingestMultipart(t, fields);
      assert.equal(res.status, status, `${name}: ${res.text}`);
      assert.equal(field(res.body, "error.code"), code, name);
    }
    const mismatch = await ingestMultipart(t, { type: "knowledge", database: "rules", document_metadata: JSON.stringify([{ id: "a" }, { id: "b" }]) }, [
      { name: "one.txt", content: "only one file", type: "text/plain" },
    ]);
    assert.equal(mismatch.status, 422);
    assert.equal(field(mismatch.body, "error.code"), "VALIDATION_ERROR");
    const jsonObject = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "rules", app_knowledge: app("a", "x") } });
    assert.equal(jsonObject.status, 422, "JSON body: app_knowledge as an object");
    assert.equal(await itemCount(), before, "failed calls stored nothing");
  });

  test("tenant_id / sub_tenant_id are accepted with deprecation notices", async () => {
    const res = await ingestMultipart(t, {
      type: "knowledge",
      tenant_id: "rules",
      sub_tenant_id: "legacy",
      app_knowledge: JSON.stringify([app("legacy-1", "old names")]),
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.headers.get("deprecation"), "true");
    assert.equal(field(res.body, "meta.collection"), "legacy");
    const [row] = await waitTerminal(t, "rules", ["legacy-1"], "legacy");
    assert.equal(row?.indexing_status, "completed");
  });

  test("upsert replaces the item and its chunks; upsert=false fails that item only", async () => {
    await ingestMultipart(t, { type: "knowledge", database: "rules", app_knowledge: JSON.stringify([app("doc", "The first version mentions apples.")]) });
    await waitTerminal(t, "rules", ["doc"]);
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: "rules",
      app_knowledge: JSON.stringify([app("doc", "The second version mentions oranges.")]),
    });
    assert.equal(res.status, 202);
    const [row] = await waitTerminal(t, "rules", ["doc"]);
    assert.equal(row?.indexing_status, "completed");
    const items = await t.app.store.db.selectFrom("context_items").select(["id", "generation"]).where("source_id", "=", "doc").execute();
    assert.equal(items.length, 1);
    assert.equal(items[0]?.generation, 2);
    const chunks = await t.app.store.db.selectFrom("context_chunks").select(["content", "chunk_key", "terms"]).where("item_id", "=", items[0].id).execute();
    assert.ok(chunks.length > 0);
    assert.ok(chunks.every((c) => c.content.includes("oranges") && !c.content.includes("apples")));
    const terms = chunks.flatMap((c) => decodeTerms(c.terms).map(([term]) => term));
    assert.ok(terms.includes("orang"), "postings are stemmed");
    const everyChunk = await t.app.store.db.selectFrom("context_chunks").select("terms").execute();
    assert.ok(
      everyChunk.every((c) => !decodeTerms(c.terms).some(([term]) => term === "appl")),
      "the old version's postings are gone",
    );

    const noUpsert = await ingestMultipart(t, {
      type: "knowledge",
      database: "rules",
      upsert: "false",
      app_knowledge: JSON.stringify([app("doc", "Third version."), app("fresh", "A new item.")]),
    });
    assert.equal(noUpsert.status, 202);
    const results = field<Array<{ id: string; status: string; error_code?: string }>>(noUpsert.body, "data.results");
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [
        ["doc", "failed"],
        ["fresh", "queued"],
      ],
    );
    assert.equal(results[0]?.error_code, "ITEM_ALREADY_EXISTS");
    await waitTerminal(t, "rules", ["fresh"]);
    const still = await t.app.store.db.selectFrom("context_items").select("content").where("source_id", "=", "doc").executeTakeFirstOrThrow();
    assert.match(still.content ?? "", /oranges/);
  });

  test("the same id twice in one call: with upsert the later one wins, without it the later one fails", async () => {
    const twice = await ingestMultipart(t, {
      type: "knowledge",
      database: "rules",
      app_knowledge: JSON.stringify([app("dup", "First pears."), app("other", "Plums."), app("dup", "Second kiwis.")]),
    });
    assert.deepEqual(
      field<Array<{ id: string; status: string }>>(twice.body, "data.results").map((r) => [r.id, r.status]),
      [
        ["dup", "queued"],
        ["other", "queued"],
        ["dup", "queued"],
      ],
    );
    await waitTerminal(t, "rules", ["dup", "other"]);
    const dup = await t.app.store.db.selectFrom("context_items").selectAll().where("source_id", "=", "dup").execute();
    assert.equal(dup.length, 1);
    assert.equal(dup[0]?.generation, 2);
    assert.equal(dup[0]?.status, "completed");
    const chunks = await t.app.store.db.selectFrom("context_chunks").select("content").where("item_id", "=", dup[0].id).execute();
    assert.ok(chunks.length > 0 && chunks.every((c) => c.content.includes("kiwis") && !c.content.includes("pears")));

    const strict = await ingestMultipart(t, {
      type: "knowledge",
      database: "rules",
      upsert: "false",
      app_knowledge: JSON.stringify([app("dup2", "Figs."), app("dup2", "Dates.")]),
    });
    const results = field<Array<{ id: string; status: string; error_code?: string }>>(strict.body, "data.results");
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.error_code ?? null]),
      [
        ["dup2", "queued", null],
        ["dup2", "failed", "ITEM_ALREADY_EXISTS"],
      ],
    );
    await waitTerminal(t, "rules", ["dup2"]);
    const kept = await t.app.store.db.selectFrom("context_items").select(["content", "generation"]).where("source_id", "=", "dup2").execute();
    assert.deepEqual(
      kept.map((k) => [k.generation, /Figs/.test(k.content ?? "")]),
      [[1, true]],
    );
  });

  test("per-item metadata of the wrong declared type fails that item; undeclared keys move to additional_metadata", async () => {
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: "rules",
      app_knowledge: JSON.stringify([
        { ...app("typed-ok", "ok"), metadata: { priority: 2, owner: "ops" } },
        { ...app("typed-bad", "bad"), metadata: { priority: "urgent" } },
      ]),
    });
    const results = field<Array<{ id: string; status: string; error_code?: string }>>(res.body, "data.results");
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.error_code ?? null]),
      [
        ["typed-ok", "queued", null],
        ["typed-bad", "failed", "VALIDATION_ERROR"],
      ],
    );
    const row = await t.app.store.db
      .selectFrom("context_items")
      .select(["metadata", "additional_metadata"])
      .where("source_id", "=", "typed-ok")
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.metadata), { priority: 2 });
    assert.deepEqual(JSON.parse(row.additional_metadata), { owner: "ops" });
  });

  test("one call with 1,000 items is accepted and every item completes", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => app(`bulk-${i}`, `Bulk item number ${i} about topic ${i % 17}.`));
    const res = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "rules", collection: "bulk", app_knowledge: items } });
    assert.equal(res.status, 202, res.text);
    assert.equal(field(res.body, "data.success_count"), 1000);
    const rows = await waitTerminal(
      t,
      "rules",
      items.map((i) => i.id),
      "bulk",
      300_000,
    );
    assert.equal(rows.filter((r) => r.indexing_status === "completed").length, 1000);
  });

  test("expired memories are purged by the scheduled job", async () => {
    const res = await ingestMultipart(t, {
      type: "memory",
      database: "rules",
      collection: "u1",
      memories: JSON.stringify([
        { id: "short", text: "Remember the gate code 1234", expiry_time: 1 },
        { id: "long", text: "Likes tea" },
      ]),
    });
    assert.equal(res.status, 202);
    await waitTerminal(t, "rules", ["short", "long"], "u1");
    t.clock.advance(1_100); // "short" (expiry_time 1 s) has expired
    assert.equal(await t.app.maintenance.purgeExpired(), 1);
    const left = await t.app.store.db.selectFrom("context_items").select("source_id").where("collection", "=", "u1").execute();
    assert.deepEqual(
      left.map((r) => r.source_id),
      ["long"],
    );
    const orphanChunks = await t.app.store.db.selectFrom("context_chunks").select("chunk_key").where("collection", "=", "u1").execute();
    assert.equal(orphanChunks.length, 1);
  });
});

describe("a very large ingest call", () => {
  // The job workers stop once the database is ready: nothing is indexed; this is about accepting
  // the call. Before, its jobs were inserted in one statement: 6,000 items bound about 84,000
  // variables, past SQLite's limit of 32,766 and PostgreSQL's of 65,535, and the call answered 500.
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "huge");
    await t.app.worker.stop(1_000);
  });
  after(async () => t.close());

  test("6,000 items in one call are accepted whole, each queued once", async () => {
    const items = Array.from({ length: 6000 }, (_, i) => ({ id: `huge-${i}`, type: "note", content: { text: `Item ${i}.` } }));
    const res = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "huge", app_knowledge: items } });
    assert.equal(res.status, 202, res.text);
    assert.equal(field(res.body, "data.success_count"), 6000);
    const jobs = await t.app.store.db.selectFrom("jobs").select("dedupe_key").where("kind", "=", "ingest.item").execute();
    assert.equal(new Set(jobs.map((j) => j.dedupe_key)).size, 6000);
    const stored = await t.app.store.db.selectFrom("context_items").select("source_id").where("source_id", "like", "huge-%").execute();
    assert.equal(stored.length, 6000);
  });
});
