import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signFileToken } from "../../src/features/items/file-url.js";
import { ingestApp, ingestMemories } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

type Row = Record<string, unknown>;

const GUIDE = "# Install guide\n\n## Requirements\n\nNode 20 and a PostgreSQL 15 server.\n\n## Steps\n\nRun npm ci, then npm start.\n";
const EMAIL = {
  kind: "email",
  provider: "gmail",
  external_id: "m1",
  fields: { from: "ada@example.com", to: ["bob@example.com"], subject: "Launch", body: "We launch on Friday." },
  metadata: { team: "eng" },
};

async function uploadGuide(t: TestApp, database: string, id = "guide", content = GUIDE): Promise<void> {
  const res = await ingestMultipart(t, { type: "knowledge", database, document_metadata: JSON.stringify([{ id }]) }, [
    { name: "install guide.md", content, type: "text/markdown" },
  ]);
  assert.equal(res.status, 202, res.text);
  const [row] = await waitTerminal(t, database, [id]);
  assert.equal(row?.indexing_status, "completed");
}

const inspect = (t: TestApp, query: Record<string, string>) => t.request("GET", "/context/inspect", { query });

describe("GET /context/inspect", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "docs", { database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
    await uploadGuide(t, "docs");
    await ingestApp(t, "docs", [EMAIL]);
    await ingestMemories(t, "docs", [
      { id: "pref", text: "I love hiking on weekends", infer: true, user_name: "Sam" },
      { id: "gone", text: "short-lived", expiry_time: 3600 },
    ]);
    await t.app.store.db
      .updateTable("context_items")
      .set({ expires_at: Date.now() - 1 })
      .where("source_id", "=", "gone")
      .execute();
  });
  after(async () => t.close());

  test("an app item: its content as sent, its indexed text, title and metadata", async () => {
    const res = await inspect(t, { database: "docs", id: "gmail:email:m1" });
    assert.equal(res.status, 200, res.text);
    const d = field<Row>(res.body, "data");
    assert.equal(d.id, "gmail:email:m1");
    assert.equal(d.success, true);
    assert.deepEqual(d.original, EMAIL);
    assert.match(String(d.content), /We launch on Friday\./);
    assert.equal(d.title, "Launch");
    assert.deepEqual(d.metadata, { team: "eng" });
    assert.equal(d.app_kind, "email");
    assert.equal(d.source_type, "knowledge");
    assert.equal(d.indexing_status, "completed");
    assert.equal(d.presigned_url, null);
    assert.equal(d.collection, "docs");
    assert.equal(d.chunks, undefined, "chunks are listed only on request");

    const withChunks = await inspect(t, { database: "docs", id: "gmail:email:m1", include_chunks: "true" });
    assert.equal(withChunks.status, 200, withChunks.text);
    const w = field<Row & { chunks: Array<{ position: number; content: string; chunk_uuid: string }>; chunk_count: number }>(withChunks.body, "data");
    assert.equal(w.chunks.length, w.chunk_count);
    assert.ok(w.chunk_count >= 1);
    assert.deepEqual(
      w.chunks.map((c) => c.position),
      w.chunks.map((_, i) => i),
      "in order",
    );
    assert.equal(w.chunks.map((c) => c.content).join("\n\n"), w.content, "the indexed text is the chunks joined");
  });

  test("a memory: as sent, with inferred content; unknown or expired memories are MEMORY_NOT_FOUND", async () => {
    const res = await inspect(t, { database: "docs", id: "pref", type: "memory" });
    assert.equal(res.status, 200, res.text);
    const d = field<Row>(res.body, "data");
    assert.equal(d.memory_content, "I love hiking on weekends");
    assert.match(String(d.inferred_content), /Sam likes hiking/i);
    assert.deepEqual(d.original, { text: "I love hiking on weekends", user_assistant_pairs: null, is_markdown: false });
    assert.equal(d.source_type, "memory");
    assert.match(String(d.content), /hiking/);
    assert.doesNotMatch(String(d.content), /Sam likes/);
    const untyped = await inspect(t, { database: "docs", id: "pref" });
    assert.equal(field(untyped.body, "data.source_type"), "memory");
    for (const id of ["nope", "gone"]) {
      const miss = await inspect(t, { database: "docs", id, type: "memory" });
      assert.equal(miss.status, 404);
      assert.equal(field(miss.body, "error.code"), "MEMORY_NOT_FOUND");
    }
  });

  test("unknown knowledge ids are FILE_NOT_FOUND, also in another collection; bad parameters are 400; unknown database 404", async () => {
    const miss = await inspect(t, { database: "docs", id: "nope" });
    assert.equal(miss.status, 404);
    assert.equal(field(miss.body, "error.code"), "FILE_NOT_FOUND");
    const scope = await inspect(t, { database: "docs", id: "guide", collection: "elsewhere" });
    assert.equal(field(scope.body, "error.code"), "FILE_NOT_FOUND");
    const bad: Record<string, string>[] = [
      { database: "docs" },
      { id: "guide" },
      { database: "docs", id: "guide", mode: "raw" },
      { database: "docs", id: "guide", expiry_seconds: "0" },
    ];
    for (const query of bad) {
      const res = await inspect(t, query);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    const db = await inspect(t, { database: "nodb", id: "guide" });
    assert.equal(field(db.body, "error.code"), "DATABASE_NOT_FOUND");
  });

  test("a file: a signed, expiring URL served by us, streaming the bytes with type and name", async () => {
    const res = await inspect(t, { tenant_id: "docs", id: "guide" });
    assert.equal(res.status, 200, res.text);
    const d = field<Row>(res.body, "data");
    const url = String(d.presigned_url);
    assert.ok(url.startsWith(`${t.baseUrl}/context/files/`), url);
    assert.match(String(d.content), /PostgreSQL 15 server/);
    assert.equal(d.content_base64, null);
    assert.equal(d.size_bytes, Buffer.byteLength(GUIDE));
    assert.equal(d.file_name, "install guide.md");
    assert.match(String(d.content_type), /^text\/markdown/);
    const expiresIn = Date.parse(String(d.url_expires_at)) - Date.now();
    assert.ok(expiresIn > 3500_000 && expiresIn <= 3600_000, String(expiresIn));

    const download = await fetch(url); // no API key: the signature is the credential
    assert.equal(download.status, 200);
    assert.equal(await download.text(), GUIDE);
    assert.match(download.headers.get("content-type") ?? "", /^text\/markdown/);
    assert.match(download.headers.get("content-disposition") ?? "", /attachment; filename="install guide.md"/);
  });

  test("downloads never run as a page of the service: nosniff, attachment and a sandboxing policy, whatever type was uploaded", async () => {
    // The file's type is told by its name; the Content-Type is the uploader's, and served back as sent.
    const files = [
      { id: "page", name: "page.txt", type: "text/html", content: "<html><body><script>fetch('/databases')</script>hi</body></html>" },
      { id: "drawing", name: "drawing.md", type: "image/svg+xml", content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
      { id: "feed", name: "feed.csv", type: "application/xhtml+xml", content: '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>' },
      { id: "script", name: "run.txt", type: "text/javascript", content: "fetch('/databases')" },
    ];
    for (const f of files) {
      const res = await ingestMultipart(t, { type: "knowledge", database: "docs", document_metadata: JSON.stringify([{ id: f.id }]) }, [f]);
      assert.equal(res.status, 202, res.text);
    }
    await waitTerminal(
      t,
      "docs",
      files.map((f) => f.id),
    );
    for (const f of [...files, { id: "guide", name: "install guide.md", type: "text/markdown", content: GUIDE }]) {
      const url = String(field((await inspect(t, { database: "docs", id: f.id, mode: "url" })).body, "data.presigned_url"));
      const download = await fetch(url);
      assert.equal(download.status, 200, f.name);
      assert.equal(await download.text(), f.content, "the bytes as uploaded");
      assert.match(download.headers.get("content-type") ?? "", new RegExp(`^${f.type.replace("+", "\\+")}`), "the type as uploaded");
      assert.equal(download.headers.get("x-content-type-options"), "nosniff", f.name);
      assert.match(download.headers.get("content-disposition") ?? "", new RegExp(`^attachment; filename="${f.name}"`), f.name);
      assert.equal(download.headers.get("content-security-policy"), "default-src 'none'; sandbox", f.name);
    }
  });

  test("modes: content gives the bytes inline and no URL; url gives only the URL; expiry_seconds is honoured", async () => {
    const content = field<Row>((await inspect(t, { database: "docs", id: "guide", mode: "content" })).body, "data");
    assert.equal(Buffer.from(String(content.content_base64), "base64").toString("utf8"), GUIDE);
    assert.equal(content.presigned_url, null);
    const url = field<Row>((await inspect(t, { database: "docs", id: "guide", mode: "url", expiry_seconds: "60" })).body, "data");
    assert.equal(url.content, null);
    assert.ok(String(url.presigned_url).includes("/context/files/"));
    assert.ok(Date.parse(String(url.url_expires_at)) - Date.now() <= 60_000);
    const both = field<Row>((await inspect(t, { database: "docs", id: "guide", mode: "both" })).body, "data");
    assert.ok(both.presigned_url && both.content_base64 && both.content);
  });

  test("a tampered, malformed or expired URL is refused with a code; the secret is kept in the store", async () => {
    const d = field<Row>((await inspect(t, { database: "docs", id: "guide" })).body, "data");
    const token = String(d.presigned_url).split("/context/files/")[1] ?? "";
    const raw = Buffer.from(token, "base64url");
    const flipped = Buffer.from(raw);
    flipped[37] = (flipped[37] ?? 0) ^ 0xff; // push the expiry far out
    const forgedExpiry = flipped.toString("base64url");
    const wrongMac = Buffer.concat([raw.subarray(0, 38), Buffer.alloc(16)]).toString("base64url");
    for (const bad of [forgedExpiry, wrongMac]) {
      const res = await t.request("GET", `/context/files/${bad}`, { key: null });
      assert.equal(res.status, 403, bad);
      assert.equal(field(res.body, "error.code"), "FILE_URL_INVALID");
    }
    // `${token}x`: Node's base64url decoder ignores a trailing character that makes no whole byte,
    // so this once decoded to the signed bytes and downloaded the file (found by the authorization matrix).
    for (const bad of ["not-a-token", `${token}.x`, token.slice(0, -4), `${token}x`, `${token}A`]) {
      const res = await t.request("GET", `/context/files/${bad}`, { key: null });
      assert.equal(res.status, 403, bad);
      assert.equal(field(res.body, "error.code"), "FILE_URL_INVALID");
    }
    const itemId = raw.subarray(0, 16).toString("hex");
    const blobId = raw.subarray(16, 32).toString("hex");
    const uuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    const item = await t.app.store.db.selectFrom("context_items").select(["id", "blob_id"]).where("source_id", "=", "guide").executeTakeFirstOrThrow();
    assert.equal(uuid(itemId), item.id);
    assert.equal(uuid(blobId), item.blob_id);
    const setting = await t.app.store.db.selectFrom("settings").select("value").where("name", "=", "file_url_secret").executeTakeFirstOrThrow();
    // Kept sealed under the master key (secrets at rest), and opened with it.
    assert.ok(t.app.secrets.fileUrl.isCurrent(setting.value));
    const opened = t.app.secrets.fileUrl.open(setting.value);
    assert.ok(opened.ok);
    const expired = signFileToken(opened.secret, { itemId: item.id, blobId: item.blob_id ?? "", expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const res = await t.request("GET", `/context/files/${expired}`, { key: null });
    assert.equal(res.status, 403);
    assert.equal(field(res.body, "error.code"), "FILE_URL_EXPIRED");
    const valid = signFileToken(opened.secret, { itemId: item.id, blobId: item.blob_id ?? "", expiresAt: Math.floor(Date.now() / 1000) + 60 });
    assert.equal((await t.request("GET", `/context/files/${valid}`, { key: null })).status, 200);
  });

  test("re-uploading a file retires URLs to the old bytes", async () => {
    await uploadGuide(t, "docs", "replaced", "# v1\n\nfirst version\n");
    const before = String(field((await inspect(t, { database: "docs", id: "replaced" })).body, "data.presigned_url"));
    await uploadGuide(t, "docs", "replaced", "# v2\n\nsecond version\n");
    const old = await fetch(before);
    assert.equal(old.status, 404);
    assert.equal(field(await old.json(), "error.code"), "FILE_NOT_FOUND");
    const fresh = String(field((await inspect(t, { database: "docs", id: "replaced" })).body, "data.presigned_url"));
    assert.equal(await (await fetch(fresh)).text(), "# v2\n\nsecond version\n");
  });
});

describe("file URL secret", () => {
  let db: TestDb;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    db = await createTestDb();
    a = await startTestApp({}, db);
    b = await startTestApp({}, db);
  });
  after(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  test("without FILE_URL_SECRET, nodes on one store share the generated secret", async () => {
    await createReadyDatabase(a, "shared");
    await uploadGuide(a, "shared");
    const url = String(field((await inspect(a, { database: "shared", id: "guide" })).body, "data.presigned_url"));
    const path = url.slice(a.baseUrl.length);
    const viaB = await fetch(`${b.baseUrl}${path}`);
    assert.equal(viaB.status, 200);
    assert.equal(await viaB.text(), GUIDE);
  });

  test("FILE_URL_SECRET signs the URLs when configured", async () => {
    const secret = "a-configured-secret-of-enough-length";
    const c = await startTestApp({ FILE_URL_SECRET: secret });
    try {
      await createReadyDatabase(c, "own");
      await uploadGuide(c, "own");
      const url = String(field((await inspect(c, { database: "own", id: "guide" })).body, "data.presigned_url"));
      const item = await c.app.store.db.selectFrom("context_items").select(["id", "blob_id"]).where("source_id", "=", "guide").executeTakeFirstOrThrow();
      const expiresAt = Date.parse(String(field((await inspect(c, { database: "own", id: "guide" })).body, "data.url_expires_at"))) / 1000;
      const mine = signFileToken(secret, { itemId: item.id, blobId: item.blob_id ?? "", expiresAt });
      assert.equal(url.split("/context/files/")[1]?.slice(0, 40), mine.slice(0, 40), "same item and blob ids");
      const forged = signFileToken("some-other-secret-entirely", { itemId: item.id, blobId: item.blob_id ?? "", expiresAt });
      assert.equal((await fetch(`${c.baseUrl}/context/files/${forged}`)).status, 403);
      assert.equal((await fetch(`${c.baseUrl}/context/files/${mine}`)).status, 200);
      assert.equal((await fetch(url)).status, 200);
      const rows = await c.app.store.db.selectFrom("settings").selectAll().where("name", "=", "file_url_secret").execute();
      assert.deepEqual(rows, [], "no generated secret when one is configured");
    } finally {
      await c.close();
    }
  });
});
