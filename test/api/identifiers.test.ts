import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";

const DB = "names_db";
const BAD_NAMES: Array<[string, RegExp]> = [
  ["with\u0000nul", /control characters/],
  ["tab\u0001x", /control characters/],
  ["rtl\u202Eoverride", /bidirectional/],
  ["iso\u2066late", /bidirectional/],
  ["lone\uD800surrogate", /valid Unicode/],
  ["zero\u200Bwidth", /invisible characters .*U\+200B/],
  ["joined\u200Dname", /invisible characters .*U\+200D/],
  ["bom\uFEFF", /invisible characters .*U\+FEFF/],
  ["mark\u200Fed", /invisible characters .*U\+200F/],
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

const NFC = "caf\u00e9";
const NFD = "cafe\u0301";

/** POST /context/ingest as multipart written by hand: a file name exactly as given, NUL included (FormData would escape it). */
async function uploadNamed(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  fileName: string,
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const boundary = "----names";
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: text/markdown\r\n\r\n# Note\n\nA file with a name.\n\r\n`,
  );
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${t.key}`, "API-Version": "2", "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`, "utf8"),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

/** Issue 58: names look alike in two Unicode spellings or with invisible characters; they are one name in NFC, and invisibles are refused. */
describe("names are taken in NFC and without invisible characters, on every way in", () => {
  let t: TestApp;
  let slack: FakeSlack;
  before(async () => {
    slack = await FakeSlack.start({ token: "xoxb-names" });
    t = await startTestApp({ CONNECTOR_SLACK_API_URL: slack.url });
  });
  after(async () => {
    await t.close();
    await slack.close();
  });
  const names = async (): Promise<string[]> => {
    const res = await t.request("GET", "/databases");
    assert.equal(res.status, 200, res.text);
    return field<Array<{ database: string }>>(res.body, "data.databases").map((d) => d.database);
  };

  test("databases: the NFD spelling names the NFC database (v2, /tenants, /byog, v1); created once, listed once", async () => {
    await createReadyDatabase(t, NFD);
    assert.deepEqual(await names(), [NFC], "stored in NFC");
    const again = await t.request("POST", "/databases", { body: { database: NFC } });
    assert.equal(again.status, 409, again.text);
    assert.equal(field(again.body, "error.code"), "DATABASE_ALREADY_EXISTS");
    const legacy = await t.request("POST", "/tenants/create", { body: { tenant_id: NFD } });
    assert.equal(legacy.status, 409, legacy.text);
    for (const spelling of [NFC, NFD]) {
      const status = await t.request("GET", "/databases/status", { query: { database: spelling } });
      assert.equal(status.status, 200, status.text);
      const tenant = await t.request("GET", "/tenants/infra/status", { query: { tenant_id: spelling } });
      assert.equal(tenant.status, 200, tenant.text);
    }
    // v1: a memory added under the NFD spelling is in the NFC database.
    const added = await t.request("POST", "/memories/add_memory", { body: { tenant_id: NFD, memories: [{ text: "the kiln fires on Thursdays" }] } });
    assert.equal(added.status, 202, added.text);
    const memoryId = String(field<Array<{ id: string }>>(added.body, "results")[0]?.id);
    const [memory] = await waitTerminal(t, NFC, [memoryId]);
    assert.equal(memory?.indexing_status, "completed", "found in the NFC database");
    // The graph area: one database for both spellings.
    const graphNfd = "gr\u0061\u0308ph";
    assert.equal((await t.request("POST", "/byog/databases", { body: { database: graphNfd } })).status, 200);
    const graph = await t.request("POST", "/byog/databases", { body: { database: "gr\u00e4ph" } });
    assert.equal(graph.status, 409, graph.text);
    assert.deepEqual((await names()).sort(), [NFC, "gr\u00e4ph"].sort());
    const zeroWidth = await t.request("POST", "/databases", { body: { database: "db\u200bA" } });
    assert.equal(zeroWidth.status, 400, zeroWidth.text);
    assert.equal(field(zeroWidth.body, "error.code"), "INVALID_INPUT");
    assert.equal((await t.request("POST", "/tenants/create", { body: { tenant_id: "db\u200bA" } })).status, 400);
    assert.equal((await t.request("POST", "/byog/databases", { body: { database: "db\u200bA" } })).status, 400);
  });

  test("collections: NFD and NFC are one collection on ingest, list and the v1 routes; zero-width is 400", async () => {
    await createReadyDatabase(t, "coll_db");
    const item = (id: string) => JSON.stringify([{ id, type: "note", content: { text: `note ${id}` } }]);
    assert.equal(
      (await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "coll_db", collection: "Zo\u00eb", app_knowledge: item("a") } }))
        .status,
      202,
    );
    assert.equal(
      (await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "coll_db", collection: "Zoe\u0308", app_knowledge: item("b") } }))
        .status,
      202,
    );
    await waitTerminal(t, "coll_db", ["a", "b"], "Zo\u00eb");
    const collections = await t.request("GET", "/databases/collections", { query: { database: "coll_db" } });
    assert.equal(collections.status, 200, collections.text);
    assert.equal(JSON.stringify(collections.body.data).includes("Zoe\u0308"), false, collections.text);
    const listed = await t.request("POST", "/context/list", { body: { database: "coll_db", collection: "Zoe\u0308" } });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      field<Array<{ id: string }>>(listed.body, "data.sources")
        .map((r) => r.id)
        .sort(),
      ["a", "b"],
    );
    const v1 = await t.request("POST", "/memories/add_memory", { body: { tenant_id: "coll_db", sub_tenant_id: "Zoe\u0308", memories: [{ text: "x" }] } });
    assert.equal(v1.status, 202, v1.text);
    const [memory] = await waitTerminal(t, "coll_db", [String(field<Array<{ id: string }>>(v1.body, "results")[0]?.id)], "Zo\u00eb");
    assert.equal(memory?.indexing_status, "completed", "in the NFC collection");
    const hidden = await t.request("POST", "/memories/add_memory", { body: { tenant_id: "coll_db", sub_tenant_id: "team\u200b", memories: [{ text: "x" }] } });
    assert.equal(hidden.status, 400, hidden.text);
    assert.equal(field(hidden.body, "detail.error_code"), "INVALID_INPUT");
  });

  test("file names: NUL, controls and invisibles are 400 with nothing stored, on v2 and v1; an NFD name is kept in NFC", async () => {
    await createReadyDatabase(t, "files_db");
    for (const [path, fields] of [
      ["/context/ingest", { type: "knowledge", database: "files_db" }],
      ["/ingestion/upload_knowledge", { tenant_id: "files_db" }],
    ] as const) {
      for (const bad of ["nul\u0000.md", "bell\u0007.md", "zero\u200b.md", "rtl\u202Egnp.md"]) {
        const res = await uploadNamed(t, path, fields, bad);
        assert.equal(res.status, 400, `${path} ${JSON.stringify(bad)}: ${res.text}`);
        assert.equal(field(res.body, "error.code") ?? field(res.body, "detail.error_code"), "INVALID_INPUT", res.text);
      }
    }
    const listed = await t.request("POST", "/context/list", { body: { database: "files_db" } });
    assert.deepEqual(field<unknown[]>(listed.body, "data.sources"), [], "nothing stored");
    const ok = await uploadNamed(
      t,
      "/context/ingest",
      { type: "knowledge", database: "files_db", document_metadata: JSON.stringify([{ id: "cv" }]) },
      "re\u0301sume\u0301.md",
    );
    assert.equal(ok.status, 202, ok.text);
    assert.equal(field<Array<{ file_name: string }>>(ok.body, "data.results")[0]?.file_name, "r\u00e9sum\u00e9.md");
    await waitTerminal(t, "files_db", ["cv"]);
    const inspected = await t.request("GET", "/context/inspect", { query: { database: "files_db", id: "cv" } });
    assert.equal(field(inspected.body, "data.file_name"), "r\u00e9sum\u00e9.md");
  });

  test("metadata keys and connector names: invisible characters are 400", async () => {
    await createReadyDatabase(t, "keys_db");
    const ingest = await t.request("POST", "/context/ingest", {
      body: {
        type: "knowledge",
        database: "keys_db",
        metadata: { "team\u200b": "x" },
        app_knowledge: JSON.stringify([{ id: "k", type: "note", content: { text: "k" } }]),
      },
    });
    assert.equal(ingest.status, 400, ingest.text);
    assert.match(String(field(ingest.body, "error.message")), /invisible/);
    const connector = (body: Record<string, unknown>) =>
      t.request("POST", "/connectors", { body: { provider: "slack", database: "keys_db", credentials: { access_token: "xoxb-names" }, ...body } });
    for (const body of [{ name: "sl\u200back" }, { name: "nul\u0000" }, { collection: "c\u2060" }]) {
      const res = await connector(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    const created = await connector({ name: "Cafe\u0301 channel" });
    assert.equal(created.status, 201, created.text);
    assert.equal(field(created.body, "name"), "Caf\u00e9 channel");
    const id = String(created.body.connector_id);
    for (const body of [{ display_name: "gen\u200beral" }, { collection_override: "x\u200b" }]) {
      const res = await t.request("POST", `/connectors/${id}/resources`, { body: { resource_id: "C0NAMES", resource_type: "channel", ...body } });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    }
  });
});
