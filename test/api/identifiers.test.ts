import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

const DB = "names_db";
const BAD_NAMES: Array<[string, RegExp]> = [
  ["with\u0000nul", /control characters/],
  ["tab\u0001x", /control characters/],
  ["rtl\u202Eoverride", /bidirectional/],
  ["iso\u2066late", /bidirectional/],
  ["lone\uD800surrogate", /valid Unicode/],
  ["n".repeat(129), /128 characters/],
];

/** Identifier rules (issue 12): names and ids are bounded, printable, well-formed Unicode, on every way in. */
describe("identifier and name rules", () => {
  let t: TestApp;
  let snapshot: string;
  const listAll = async (): Promise<string> => {
    const res = await t.request("POST", "/context/list", { body: { database: DB, include_fields: ["metadata", "additional_metadata"] } });
    assert.equal(res.status, 200, res.text);
    return JSON.stringify(field(res.body, "data.sources"));
  };
  const databases = async (): Promise<string[]> => {
    const res = await t.request("GET", "/databases");
    assert.equal(res.status, 200, res.text);
    return JSON.stringify(res.body.data).match(/"database":"[^"]*"/g) ?? [];
  };

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, DB);
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      app_knowledge: JSON.stringify([{ id: "repo/docs/readme.md", type: "note", content: { text: "kept" } }]),
    });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, DB, ["repo/docs/readme.md"]);
    snapshot = await listAll();
  });
  after(async () => t.close());

  test("database names: POST /databases, /tenants/create and /byog/databases refuse bad names with 400", async () => {
    const before = await databases();
    for (const [name, why] of BAD_NAMES) {
      const v2 = await t.request("POST", "/databases", { body: { database: name } });
      assert.equal(v2.status, 400, `${JSON.stringify(name)}: ${v2.text}`);
      assert.equal(field(v2.body, "error.code"), "INVALID_INPUT");
      assert.match(String(field(v2.body, "error.message")), why);
      const legacy = await t.request("POST", "/tenants/create", { body: { tenant_id: name } });
      assert.equal(legacy.status, 400, legacy.text);
      const graph = await t.request("POST", "/byog/databases", { body: { database: name } });
      assert.equal(graph.status, 400, graph.text);
      assert.equal(field(graph.body, "detail.error_code"), "INVALID_INPUT");
    }
    assert.deepEqual(await databases(), before);
  });

  test("collection names on ingest are refused with 400 and a reason", async () => {
    for (const [name, why] of BAD_NAMES) {
      // a JSON body: multipart would carry a lone surrogate as U+FFFD
      const res = await t.request("POST", "/context/ingest", {
        body: { type: "knowledge", database: DB, collection: name, app_knowledge: JSON.stringify([{ id: "x", type: "note", content: { text: "x" } }]) },
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
      assert.match(String(field(res.body, "error.message")), why);
    }
    const v1 = await t.request("POST", "/memories/add_memory", { body: { tenant_id: DB, sub_tenant_id: "a\u202Eb", memories: [{ text: "x" }] } });
    assert.equal(v1.status, 400, v1.text);
    assert.equal(field(v1.body, "detail.error_code"), "INVALID_INPUT");
  });

  test("item ids: a 1 MB id, NUL, bidi and lone surrogates fail per item; a long legal id is fine", async () => {
    const bad = ["i".repeat(1024 * 1024), "a\u0000b", "a\u202Db", "a\uDC00b", "i".repeat(513)];
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      app_knowledge: JSON.stringify([
        ...bad.map((id) => ({ id, type: "note", content: { text: "x" } })),
        { id: "ok/" + "p".repeat(500), type: "note", content: { text: "fine" } },
      ]),
    });
    assert.equal(res.status, 202, res.text);
    assert.ok(res.text.length < 10_000, `answer of ${res.text.length} characters`);
    const rows = field<Array<Record<string, unknown>>>(res.body, "data.results");
    assert.deepEqual(
      rows.map((r) => [r.status, r.error_code ?? null]),
      [...bad.map(() => ["failed", "INVALID_INPUT"]), ["queued", null]],
    );
    assert.match(String(rows[0]?.message), /at most 512 characters/);
    await waitTerminal(t, DB, ["ok/" + "p".repeat(500)]);
    const del = await t.request("DELETE", "/context", { body: { database: DB, ids: ["ok/" + "p".repeat(500)] } });
    assert.equal(del.status, 200, del.text);
    const mem = await t.request("POST", "/context/ingest", { body: { type: "memory", database: DB, memories: [{ id: "m\u0000", text: "x" }] } });
    assert.equal(mem.status, 400, mem.text);
    assert.match(String(field(mem.body, "error.message")), /control characters/);
  });

  test("metadata keys: too long or with control/bidi characters are 400 on ingest and on PATCH", async () => {
    const ingest = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      additional_metadata: JSON.stringify({ ["k".repeat(257)]: 1 }),
      app_knowledge: JSON.stringify([{ id: "y", type: "note", content: { text: "y" } }]),
    });
    assert.equal(ingest.status, 400, ingest.text);
    assert.match(String(field(ingest.body, "error.message")), /at most 256 characters/);
    const item = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      app_knowledge: JSON.stringify([{ id: "z", type: "note", content: { text: "z" }, additional_metadata: { "a\u202Eb": 1 } }]),
    });
    assert.equal(item.status, 202, item.text);
    assert.equal(field<Array<Record<string, unknown>>>(item.body, "data.results")[0]?.error_code, "INVALID_INPUT");
    const patch = await t.request("PATCH", "/context/repo%2Fdocs%2Freadme.md/metadata", {
      body: { database: DB, additional_metadata: { "nul\u0000key": "v" } },
    });
    assert.equal(patch.status, 400, patch.text);
    assert.equal(field(patch.body, "error.code"), "INVALID_INPUT");
  });

  test("stored data is unchanged by the refused requests", async () => {
    assert.equal(await listAll(), snapshot);
  });
});
