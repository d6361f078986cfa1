import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp, ingestMemories, listContext, sourceIds } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";

type Row = Record<string, unknown>;

describe("POST /context/list", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "kb", {
      database_metadata_schema: [
        { name: "team", data_type: "VARCHAR", enable_match: true },
        { name: "priority", data_type: "INT32", enable_match: true },
        { name: "secret", data_type: "VARCHAR", enable_match: false },
      ],
    });
    await ingestApp(t, "kb", [
      {
        id: "a1",
        type: "note",
        title: "Alpha",
        description: "first",
        url: "https://example.com/a1",
        timestamp: "2024-01-01T00:00:00Z",
        content: { text: "alpha text" },
        metadata: { team: "eng", priority: 1, secret: "x" },
        additional_metadata: { source: "wiki", n: 1 },
      },
      {
        id: "a2",
        type: "note",
        title: "Beta",
        content: { text: "beta text" },
        metadata: { team: "ops", priority: 2 },
        additional_metadata: { source: "wiki", n: "1" },
      },
      {
        id: "a3",
        type: "faq",
        title: "Gamma",
        content: { text: "gamma text" },
        metadata: { team: "eng", priority: 2 },
        additional_metadata: { source: "jira", flag: true },
      },
    ]);
    await ingestMemories(t, "kb", [
      { id: "mm1", text: "I prefer dark mode", infer: false, additional_metadata: { kind: "pref" } },
      { id: "mm2", user_assistant_pairs: [{ user: "Where do I live?", assistant: "In Lisbon." }] },
      { id: "mm3", text: "Temporary note", expiry_time: 3600 },
    ]);
    // mm3 expires now: set its expiry in the past instead of waiting for it.
    await t.app.store.db
      .updateTable("context_items")
      .set({ expires_at: Date.now() - 1000 })
      .where("source_id", "=", "mm3")
      .execute();
  });
  after(async () => t.close());

  test("defaults: knowledge of the default collection, page 1 of 50, every field, legacy mirrors", async () => {
    const res = await listContext(t, { database: "kb" });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(sourceIds(res), ["a1", "a2", "a3"]);
    assert.equal(field(res.body, "data.success"), true);
    assert.equal(typeof field(res.body, "data.message"), "string");
    assert.equal(field(res.body, "data.total"), 3);
    assert.deepEqual(field(res.body, "data.pagination"), { page: 1, page_size: 50, total: 3, total_pages: 1, has_next: false, has_previous: false });
    assert.equal(field(res.body, "data.user_memories"), undefined);
    const a1 = field<Row[]>(res.body, "data.sources").find((s) => s.id === "a1");
    assert.deepEqual(a1, {
      id: "a1",
      database: "kb",
      collection: "kb",
      tenant_id: "kb",
      sub_tenant_id: "kb",
      title: "Alpha",
      type: "note",
      description: "first",
      note: null,
      timestamp: "2024-01-01T00:00:00.000Z",
      metadata: { team: "eng", priority: 1, secret: "x" },
      additional_metadata: { source: "wiki", n: 1 },
      relations: { ids: [] },
      app_kind: "custom",
      app_provider: null,
      app_external_id: null,
      comments_truncated: false,
    });
  });

  test("unknown database is 404 DATABASE_NOT_FOUND; missing database is 400", async () => {
    const res = await listContext(t, { database: "nope" });
    assert.equal(res.status, 404);
    assert.equal(field(res.body, "error.code"), "DATABASE_NOT_FOUND");
    const missing = await listContext(t, {});
    assert.equal(missing.status, 400);
    assert.equal(field(missing.body, "error.code"), "INVALID_INPUT");
  });

  test("tenant_id / sub_tenant_id aliases work with deprecation notices", async () => {
    const res = await listContext(t, { tenant_id: "kb", sub_tenant_id: "kb" });
    assert.deepEqual(sourceIds(res), ["a1", "a2", "a3"]);
    assert.equal(res.headers.get("deprecation"), "true");
    const fields = field<Row[]>(res.body, "meta.deprecation").map((d) => d.deprecated_field);
    assert.deepEqual(fields.sort(), ["sub_tenant_id", "tenant_id"]);
    const conflict = await listContext(t, { database: "kb", tenant_id: "other" });
    assert.equal(conflict.status, 400);
  });

  test("a collection without items lists nothing", async () => {
    const res = await listContext(t, { database: "kb", collection: "empty" });
    assert.deepEqual(sourceIds(res), []);
    assert.equal(field(res.body, "data.total"), 0);
    assert.deepEqual(field(res.body, "data.pagination"), { page: 1, page_size: 50, total: 0, total_pages: 0, has_next: false, has_previous: false });
  });

  test("filters.metadata: declared, match-enabled keys, exact and typed; undeclared keys are ignored", async () => {
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { team: "eng" } } })), ["a1", "a3"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { team: "eng", priority: 2 } } })), ["a3"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { priority: "2" } } })), []);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { team: "Eng" } } })), []);
    // `secret` is declared without enable_match, `nope` not at all: both ignored
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { secret: "y", nope: 1 } } })), ["a1", "a2", "a3"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { metadata: { nope: 1, team: "ops" } } })), ["a2"]);
  });

  test("filters.additional_metadata: any key, type-exact", async () => {
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { source: "wiki" } } })), ["a1", "a2"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { n: 1 } } })), ["a1"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { n: "1" } } })), ["a2"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { flag: true } } })), ["a3"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { flag: 1 } } })), []);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", filters: { additional_metadata: { missing: "x" } } })), []);
  });

  test("filters combine with AND across namespaces", async () => {
    const res = await listContext(t, {
      database: "kb",
      filters: { metadata: { team: "eng" }, additional_metadata: { source: "wiki" }, source_fields: { type: "note" } },
    });
    assert.deepEqual(sourceIds(res), ["a1"]);
  });

  test("filters.source_fields: type, title, description, url, timestamp; other keys are 400", async () => {
    const by = async (sf: Row) => sourceIds(await listContext(t, { database: "kb", filters: { source_fields: sf } }));
    assert.deepEqual(await by({ type: "faq" }), ["a3"]);
    assert.deepEqual(await by({ title: "Beta" }), ["a2"]);
    assert.deepEqual(await by({ description: "first" }), ["a1"]);
    assert.deepEqual(await by({ url: "https://example.com/a1" }), ["a1"]);
    assert.deepEqual(await by({ timestamp: "2024-01-01T00:00:00Z" }), ["a1"]);
    for (const bad of [{ owner: "x" }, { timestamp: "not a date" }, { title: 3 }]) {
      const res = await listContext(t, { database: "kb", filters: { source_fields: bad } });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    const unknownNamespace = await listContext(t, { database: "kb", filters: { whatever: {} } });
    assert.equal(unknownNamespace.status, 400);
  });

  test("legacy filter namespaces tenant_metadata / document_metadata: deprecated, canonical wins per key", async () => {
    const legacy = await listContext(t, { database: "kb", filters: { tenant_metadata: { team: "eng" }, document_metadata: { source: "wiki" } } });
    assert.deepEqual(sourceIds(legacy), ["a1"]);
    assert.equal(legacy.headers.get("deprecation"), "true");
    const notices = field<Row[]>(legacy.body, "meta.deprecation");
    assert.ok(notices.some((d) => d.deprecated_field === "filters.tenant_metadata" && d.preferred_field === "filters.metadata"));
    assert.ok(notices.some((d) => d.deprecated_field === "filters.document_metadata" && d.preferred_field === "filters.additional_metadata"));
    const both = await listContext(t, { database: "kb", filters: { metadata: { team: "ops" }, tenant_metadata: { team: "eng", priority: 2 } } });
    assert.equal(both.status, 200, both.text);
    // team from metadata (canonical) wins; priority from the legacy namespace still applies
    assert.deepEqual(sourceIds(both), ["a2"]);
    const additional = await listContext(t, { database: "kb", filters: { additional_metadata: { source: "jira" }, document_metadata: { source: "wiki" } } });
    assert.deepEqual(sourceIds(additional), ["a3"]);
    const canonical = await listContext(t, { database: "kb", filters: { metadata: { team: "eng" } } });
    assert.equal(canonical.headers.get("deprecation"), null);
    assert.equal(field(canonical.body, "meta.deprecation"), undefined);
  });

  test("ids: only those ids are considered, filters still apply, unknown ids are skipped", async () => {
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", ids: ["a1", "a3", "nope"] })), ["a1", "a3"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", ids: ["a1", "a2"], filters: { metadata: { team: "ops" } } })), ["a2"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", ids: ["a3"], filters: { metadata: { team: "ops" } } })), []);
    assert.deepEqual(sourceIds(await listContext(t, { database: "kb", ids: [] })), ["a1", "a2", "a3"]);
  });

  test("include_fields picks optional fields; id, database, collection always; content/url/attachments are 400", async () => {
    const res = await listContext(t, { database: "kb", ids: ["a1"], include_fields: ["title", "metadata"] });
    const [row] = field<Row[]>(res.body, "data.sources");
    assert.ok(row);
    assert.equal(row.id, "a1");
    assert.equal(row.database, "kb");
    assert.equal(row.collection, "kb");
    assert.equal(row.title, "Alpha");
    assert.deepEqual(row.metadata, { team: "eng", priority: 1, secret: "x" });
    for (const absent of ["type", "description", "note", "timestamp", "additional_metadata", "relations"]) assert.equal(row[absent], undefined, absent);
    const legacy = await listContext(t, { database: "kb", ids: ["a1"], include_fields: ["tenant_metadata", "document_metadata", "id"] });
    const [l] = field<Row[]>(legacy.body, "data.sources");
    assert.deepEqual(l?.metadata, { team: "eng", priority: 1, secret: "x" });
    assert.deepEqual(l?.additional_metadata, { source: "wiki", n: 1 });
    assert.equal(l?.title, undefined);
    assert.equal(legacy.headers.get("deprecation"), "true");
    for (const bad of ["content", "url", "attachments", "bogus"]) {
      const r = await listContext(t, { database: "kb", include_fields: [bad] });
      assert.equal(r.status, 400, bad);
      assert.equal(field(r.body, "error.code"), "INVALID_INPUT");
    }
    const everything = await listContext(t, { database: "kb", ids: ["a2"], include_fields: null });
    assert.equal(field<Row[]>(everything.body, "data.sources")[0]?.type, "note");
  });

  test("type memory lists user_memories; expired memories never appear", async () => {
    const res = await listContext(t, { database: "kb", type: "memory" });
    assert.equal(res.status, 200, res.text);
    const rows = field<Row[]>(res.body, "data.user_memories");
    assert.deepEqual(rows.map((r) => r.memory_id).sort(), ["mm1", "mm2"]);
    assert.equal(field(res.body, "data.sources"), undefined);
    assert.equal(field(res.body, "data.total"), 2);
    const mm1 = rows.find((r) => r.memory_id === "mm1");
    assert.equal(mm1?.memory_content, "I prefer dark mode");
    assert.equal(mm1?.inferred_content, "");
    assert.deepEqual(mm1?.additional_metadata, { kind: "pref" });
    assert.equal(mm1?.database, "kb");
    assert.equal(rows.find((r) => r.memory_id === "mm2")?.memory_content, "User: Where do I live?\nAssistant: In Lisbon.");
    const stored = await t.app.store.db.selectFrom("context_items").select("source_id").where("source_id", "=", "mm3").execute();
    assert.equal(stored.length, 1, "mm3 is still stored, only hidden");
    const hidden = await listContext(t, { database: "kb", type: "memory", ids: ["mm3"] });
    assert.deepEqual(field(hidden.body, "data.user_memories"), []);
    assert.equal(field(hidden.body, "data.total"), 0);
    const memFilter = await listContext(t, { database: "kb", type: "memory", filters: { additional_metadata: { kind: "pref" } } });
    assert.deepEqual(
      field<Row[]>(memFilter.body, "data.user_memories").map((r) => r.memory_id),
      ["mm1"],
    );
  });

  test("type all lists both corpora under one pagination", async () => {
    const res = await listContext(t, { database: "kb", type: "all", page_size: 100 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(sourceIds(res), ["a1", "a2", "a3"]);
    assert.deepEqual(
      field<Row[]>(res.body, "data.user_memories")
        .map((r) => r.memory_id)
        .sort(),
      ["mm1", "mm2"],
    );
    assert.equal(field(res.body, "data.total"), 5);
    const bad = await listContext(t, { database: "kb", type: "everything" });
    assert.equal(bad.status, 400);
  });

  test("include_fields only shapes knowledge rows", async () => {
    const res = await listContext(t, { database: "kb", type: "all", include_fields: ["title"] });
    const mem = field<Row[]>(res.body, "data.user_memories").find((r) => r.memory_id === "mm1");
    assert.deepEqual(mem?.additional_metadata, { kind: "pref" });
    assert.equal(field<Row[]>(res.body, "data.sources")[0]?.metadata, undefined);
  });
});

describe("POST /context/list pagination", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "pages");
    const items = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, type: "note", content: { text: `page item ${i}` } }));
    await ingestApp(t, "pages", items, { collection: "c1" });
  });
  after(async () => t.close());

  test("pages are 1-indexed, disjoint and cover everything; pagination fields are right", async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await listContext(t, { database: "pages", collection: "c1", page, page_size: 3 });
      assert.equal(res.status, 200, res.text);
      const ids = field<Row[]>(res.body, "data.sources").map((s) => String(s.id));
      assert.equal(ids.length, page < 3 ? 3 : 1);
      seen.push(...ids);
      assert.deepEqual(field(res.body, "data.pagination"), {
        page,
        page_size: 3,
        total: 7,
        total_pages: 3,
        has_next: page < 3,
        has_previous: page > 1,
      });
    }
    assert.deepEqual(seen.sort(), ["p0", "p1", "p2", "p3", "p4", "p5", "p6"]);
    const beyond = await listContext(t, { database: "pages", collection: "c1", page: 4, page_size: 3 });
    assert.deepEqual(sourceIds(beyond), []);
    assert.equal(field(beyond.body, "data.pagination.has_next"), false);
    assert.equal(field(beyond.body, "data.pagination.has_previous"), true);
  });

  test("page_size 1 to 100 and page >= 1; anything else is 400 INVALID_INPUT", async () => {
    const max = await listContext(t, { database: "pages", collection: "c1", page_size: 100 });
    assert.equal(field(max.body, "data.pagination.page_size"), 100);
    const one = await listContext(t, { database: "pages", collection: "c1", page_size: 1 });
    assert.equal(field<Row[]>(one.body, "data.sources").length, 1);
    assert.equal(field(one.body, "data.pagination.total_pages"), 7);
    for (const body of [{ page_size: 0 }, { page_size: 101 }, { page: 0 }, { page: -1 }, { page_size: "5" }, { page: 1.5 }]) {
      const res = await listContext(t, { database: "pages", collection: "c1", ...body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
  });

  test("filters narrow the total, not just the page", async () => {
    const res = await listContext(t, { database: "pages", collection: "c1", ids: ["p1", "p2", "p3", "p4"], page_size: 3, page: 2 });
    assert.equal(field(res.body, "data.total"), 4);
    assert.equal(field(res.body, "data.pagination.total_pages"), 2);
    assert.equal(field<Row[]>(res.body, "data.sources").length, 1);
  });
});
