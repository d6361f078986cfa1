import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ingestApp, ingestMemories, listContext, sourceIds } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { backendUnderTest } from "../helpers/test-db.js";
import { decodeTerms } from "../../src/features/items/chunk-terms.js";

type Row = Record<string, unknown>;

const patch = (t: TestApp, id: string, body: Row) => t.request("PATCH", `/context/${encodeURIComponent(id)}/metadata`, { body });

describe("PATCH /context/{id}/metadata", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "ed", {
      database_metadata_schema: [
        { name: "team", data_type: "VARCHAR", enable_match: true },
        { name: "priority", data_type: "INT32", enable_match: true },
      ],
    });
    await ingestApp(t, "ed", [
      { id: "e1", type: "note", content: { text: "first" }, metadata: { team: "eng" }, additional_metadata: { a: 1 } },
      { id: "docs/readme.md", type: "note", content: { text: "a path-like id" } },
    ]);
    await ingestMemories(t, "ed", [{ id: "mem", text: "likes tea", metadata: JSON.stringify({ team: "eng" }) }], "u1");
  });
  after(async () => t.close());

  test("merges metadata and additional_metadata; list filters see it at once; nothing is re-indexed", async () => {
    const before = await t.app.store.db
      .selectFrom("context_items")
      .select(["generation", "status", "chunk_count"])
      .where("source_id", "=", "e1")
      .executeTakeFirstOrThrow();
    const res = await patch(t, "e1", { database: "ed", metadata: { priority: 3 }, additional_metadata: { b: "two" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(field(res.body, "data.metadata"), { team: "eng", priority: 3 });
    assert.deepEqual(field(res.body, "data.additional_metadata"), { a: 1, b: "two" });
    assert.deepEqual(sourceIds(await listContext(t, { database: "ed", filters: { metadata: { priority: 3 } } })), ["e1"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "ed", filters: { additional_metadata: { b: "two" } } })), ["e1"]);

    await patch(t, "e1", { database: "ed", metadata: { team: "ops" } });
    assert.deepEqual(sourceIds(await listContext(t, { database: "ed", filters: { metadata: { team: "ops", priority: 3 } } })), ["e1"]);
    assert.deepEqual(sourceIds(await listContext(t, { database: "ed", filters: { metadata: { team: "eng" } } })), []);
    const afterPatch = await t.app.store.db
      .selectFrom("context_items")
      .select(["generation", "status", "chunk_count"])
      .where("source_id", "=", "e1")
      .executeTakeFirstOrThrow();
    assert.deepEqual(afterPatch, before);
  });

  test("metadata is aligned with the schema: undeclared keys go to additional_metadata, wrong types are 422 and change nothing", async () => {
    const res = await patch(t, "e1", { database: "ed", metadata: { owner: "ada" } });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, "data.metadata.owner"), undefined);
    assert.equal(field(res.body, "data.additional_metadata.owner"), "ada");
    const stored = await t.app.store.db.selectFrom("context_items").select("metadata").where("source_id", "=", "e1").executeTakeFirstOrThrow();
    const bad = await patch(t, "e1", { database: "ed", metadata: { priority: "high" } });
    assert.equal(bad.status, 422);
    assert.equal(field(bad.body, "error.code"), "VALIDATION_ERROR");
    const unchanged = await t.app.store.db.selectFrom("context_items").select("metadata").where("source_id", "=", "e1").executeTakeFirstOrThrow();
    assert.equal(unchanged.metadata, stored.metadata);
  });

  test("unknown ids are 404 FILE_NOT_FOUND (knowledge) or MEMORY_NOT_FOUND (memory); an empty patch is 400", async () => {
    const k = await patch(t, "nope", { database: "ed", metadata: { team: "x" } });
    assert.equal(k.status, 404);
    assert.equal(field(k.body, "error.code"), "FILE_NOT_FOUND");
    const m = await patch(t, "nope", { database: "ed", type: "memory", collection: "u1", metadata: { team: "x" } });
    assert.equal(field(m.body, "error.code"), "MEMORY_NOT_FOUND");
    const wrongScope = await patch(t, "mem", { database: "ed", type: "memory", metadata: { team: "x" } });
    assert.equal(field(wrongScope.body, "error.code"), "MEMORY_NOT_FOUND");
    const empty = await patch(t, "e1", { database: "ed" });
    assert.equal(empty.status, 400);
    const db = await patch(t, "e1", { database: "nodb", metadata: { team: "x" } });
    assert.equal(field(db.body, "error.code"), "DATABASE_NOT_FOUND");
  });

  test("memories (metadata as a JSON string, as at ingestion) and ids containing '/'", async () => {
    const res = await patch(t, "mem", { database: "ed", collection: "u1", type: "memory", metadata: JSON.stringify({ priority: 1 }) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(field(res.body, "data.metadata"), { team: "eng", priority: 1 });
    const mems = await listContext(t, { database: "ed", collection: "u1", type: "memory", filters: { metadata: { priority: 1 } } });
    assert.deepEqual(
      field<Row[]>(mems.body, "data.user_memories").map((r) => r.memory_id),
      ["mem"],
    );
    const slash = await patch(t, "docs/readme.md", { tenant_id: "ed", additional_metadata: { path: true } });
    assert.equal(slash.status, 200, slash.text);
    assert.equal(slash.headers.get("deprecation"), "true");
    assert.deepEqual(sourceIds(await listContext(t, { database: "ed", filters: { additional_metadata: { path: true } } })), ["docs/readme.md"]);
  });
});

describe("DELETE /context", () => {
  let t: TestApp;
  let databaseId: string;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "del");
    const upload = await ingestMultipart(t, { type: "knowledge", database: "del", document_metadata: JSON.stringify([{ id: "file-1" }]) }, [
      { name: "notes.txt", content: "Quarterly numbers are up.\n\nHiring continues in Lisbon.", type: "text/plain" },
    ]);
    assert.equal(upload.status, 202, upload.text);
    await waitTerminal(t, "del", ["file-1"]);
    await ingestApp(t, "del", [
      { id: "app-1", type: "note", content: { text: "first app item" } },
      { id: "app-2", type: "note", content: { text: "second app item" } },
    ]);
    await ingestMemories(t, "del", [
      { id: "mem-1", text: "prefers email" },
      { id: "mem-2", text: "lives in Porto" },
    ]);
    const row = await t.app.store.db.selectFrom("databases").select("id").where("name", "=", "del").executeTakeFirstOrThrow();
    databaseId = row.id;
  });
  after(async () => t.close());

  const itemOf = (sourceId: string) => t.app.store.db.selectFrom("context_items").selectAll().where("source_id", "=", sourceId).executeTakeFirst();
  const countWhere = async (table: "context_chunks" | "context_vectors", keys: number[]) =>
    keys.length === 0 ? 0 : (await t.app.store.db.selectFrom(table).select("chunk_key").where("chunk_key", "in", keys).execute()).length;

  test("removes a file with its chunks, postings, vectors, in-process index entries and stored blob", async () => {
    const item = await itemOf("file-1");
    assert.ok(item?.blob_id);
    const keys = (await t.app.store.db.selectFrom("context_chunks").select("chunk_key").where("item_id", "=", item.id).execute()).map((c) =>
      Number(c.chunk_key),
    );
    assert.ok(keys.length > 0);
    const stored = await t.app.store.db.selectFrom("context_chunks").select("terms").where("chunk_key", "in", keys).execute();
    assert.ok(
      stored.every((c) => decodeTerms(c.terms).length > 0),
      "every chunk holds its postings",
    );
    assert.equal(await countWhere("context_vectors", keys), keys.length);
    const blobPath = join(t.db.dataDir, "blobs", databaseId, item.blob_id);
    if (backendUnderTest() === "sqlite") assert.ok(existsSync(blobPath));
    const index = await t.app.vectors.index({ orgId: item.org_id, databaseId, corpus: "knowledge", collection: "del" }, 512);
    const indexed = backendUnderTest() === "sqlite";
    if (indexed) assert.ok(keys.every((k) => index.has(k)));
    const url = String(field((await t.request("GET", "/context/inspect", { query: { database: "del", id: "file-1" } })).body, "data.presigned_url"));

    const res = await t.request("DELETE", "/context", { body: { database: "del", ids: ["file-1", "nope"] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(field(res.body, "data.results"), [
      { id: "file-1", deleted: true, error: null },
      { id: "nope", deleted: false, error: "Source 'nope' not found", error_code: "FILE_NOT_FOUND" },
    ]);
    assert.equal(field(res.body, "data.deleted_count"), 1);
    assert.equal(field(res.body, "data.success"), true);

    assert.equal(await itemOf("file-1"), undefined);
    assert.equal((await t.app.store.db.selectFrom("context_chunks").select("chunk_key").where("item_id", "=", item.id).execute()).length, 0);
    assert.equal(await countWhere("context_chunks", keys), 0);
    assert.equal(await countWhere("context_vectors", keys), 0);
    assert.equal((await t.app.store.db.selectFrom("blobs").select("id").where("id", "=", item.blob_id).execute()).length, 0);
    assert.equal(existsSync(blobPath), false);
    if (indexed) assert.ok(keys.every((k) => !index.has(k)));
    assert.equal((await fetch(url)).status, 404);
    const status = await t.request("GET", "/context/status", { query: { database: "del", ids: "file-1" } });
    assert.equal(field(status.body, "data.statuses.0.error_code"), "FILE_NOT_FOUND");
  });

  test("app items by query string; a list no longer shows them; deleting again reports them unknown", async () => {
    const res = await t.request("DELETE", "/context", { query: { database: "del", ids: "app-1,app-2" } });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, "data.deleted_count"), 2);
    assert.deepEqual(sourceIds(await listContext(t, { database: "del" })), []);
    const again = await t.request("DELETE", "/context", { body: { database: "del", ids: ["app-1"] } });
    assert.equal(again.status, 200);
    assert.equal(field(again.body, "data.deleted_count"), 0);
    assert.equal(field(again.body, "data.success"), false);
    assert.equal(field(again.body, "data.results.0.error_code"), "FILE_NOT_FOUND");
  });

  test("memories need type memory; knowledge deletes do not touch them", async () => {
    const asKnowledge = await t.request("DELETE", "/context", { body: { database: "del", ids: ["mem-1"] } });
    assert.equal(field(asKnowledge.body, "data.results.0.deleted"), false);
    assert.ok(await itemOf("mem-1"));
    const res = await t.request("DELETE", "/context", { body: { tenant_id: "del", ids: ["mem-1", "ghost"], type: "memory" } });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, "data.user_memory_deleted"), true);
    assert.equal(field(res.body, "data.results.1.error_code"), "MEMORY_NOT_FOUND");
    assert.equal(await itemOf("mem-1"), undefined);
    const mems = await listContext(t, { database: "del", type: "memory" });
    assert.deepEqual(
      field<Row[]>(mems.body, "data.user_memories").map((r) => r.memory_id),
      ["mem-2"],
    );
  });

  test("bad requests: no ids, no database, unknown database, bad type", async () => {
    const cases: Array<[Row, number, string]> = [
      [{ database: "del" }, 400, "INVALID_INPUT"],
      [{ database: "del", ids: [] }, 400, "INVALID_INPUT"],
      [{ ids: ["x"] }, 400, "INVALID_INPUT"],
      [{ database: "del", ids: [1] }, 400, "INVALID_INPUT"],
      [{ database: "del", ids: ["x"], type: "all" }, 400, "INVALID_INPUT"],
      [{ database: "nodb", ids: ["x"] }, 404, "DATABASE_NOT_FOUND"],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request("DELETE", "/context", { body });
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(field(res.body, "error.code"), code);
    }
  });
});
