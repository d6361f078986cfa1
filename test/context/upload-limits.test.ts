import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal, type FilePart } from "../helpers/ingest.js";

const DB = "uploads";
const text = (n: number, name: string): FilePart => ({ name, content: "word ".repeat(Math.ceil(n / 5)).slice(0, n), type: "text/plain" });

async function v1Upload(t: TestApp, files: FilePart[]): Promise<HttpResult> {
  const form = new FormData();
  form.append("tenant_id", DB);
  for (const f of files) form.append("files", new Blob([String(f.content)], { type: "text/plain" }), f.name);
  const res = await fetch(`${t.baseUrl}/ingestion/upload_knowledge`, { method: "POST", headers: { Authorization: `Bearer ${t.key}` }, body: form });
  const body = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(body) as Record<string, unknown>, text: body };
}

describe("multipart uploads: per-request budget, file count, spooled to disk", () => {
  let t: TestApp;
  const stored = async (): Promise<number> => {
    const res = await t.request("POST", "/context/list", { body: { database: DB } });
    assert.equal(res.status, 200, res.text);
    return Number(field(res.body, "data.total"));
  };
  const spoolLeft = (): string[] => {
    try {
      return readdirSync(join(t.db.dataDir, "tmp", "uploads"));
    } catch {
      // No spool folder yet: nothing is left in it.
      return [];
    }
  };

  before(async () => {
    t = await startTestApp({ MAX_UPLOAD_BYTES: "6000", MAX_REQUEST_UPLOAD_BYTES: "10000", MAX_UPLOAD_FILES: "3" });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("within the limits files are accepted, and no spooled file is left behind", async () => {
    const res = await ingestMultipart(t, { type: "knowledge", database: DB, document_metadata: JSON.stringify([{ id: "a" }, { id: "b" }]) }, [
      text(4000, "a.txt"),
      text(4000, "b.txt"),
    ]);
    assert.equal(res.status, 202, res.text);
    const rows = await waitTerminal(t, DB, ["a", "b"]);
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "completed"],
    );
    assert.deepEqual(spoolLeft(), []);
    assert.equal(await stored(), 2);
  });

  test("more files than MAX_UPLOAD_FILES is 413 PAYLOAD_TOO_LARGE and stores nothing", async () => {
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: DB },
      [1, 2, 3, 4].map((i) => text(10, `f${i}.txt`)),
    );
    assert.equal(res.status, 413, res.text);
    assert.equal(field(res.body, "error.code"), "PAYLOAD_TOO_LARGE");
    assert.match(String(field(res.body, "error.message")), /at most 3 files/);
    assert.equal(await stored(), 2);
    assert.deepEqual(spoolLeft(), []);
  });

  test("files each under MAX_UPLOAD_BYTES but together over MAX_REQUEST_UPLOAD_BYTES are 413 and store nothing", async () => {
    const res = await ingestMultipart(t, { type: "knowledge", database: DB }, [text(5000, "x.txt"), text(5000, "y.txt"), text(5000, "z.txt")]);
    assert.equal(res.status, 413, res.text);
    assert.equal(field(res.body, "error.code"), "PAYLOAD_TOO_LARGE");
    assert.match(String(field(res.body, "error.message")), /MAX_REQUEST_UPLOAD_BYTES/);
    assert.equal(await stored(), 2);
    assert.deepEqual(spoolLeft(), []);
  });

  test("text fields count against the same budget", async () => {
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      app_knowledge: JSON.stringify([{ id: "big", type: "note", content: { text: "w".repeat(12_000) } }]),
    });
    assert.equal(res.status, 413, res.text);
    assert.equal(field(res.body, "error.code"), "PAYLOAD_TOO_LARGE");
    assert.equal(await stored(), 2);
  });

  test("a urlencoded form has the multipart limits: the request budget and the field count", async () => {
    const form = async (fields: Array<[string, string]>): Promise<HttpResult> => {
      const res = await fetch(`${t.baseUrl}/context/ingest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${t.key}`, "API-Version": "2", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
      const body = await res.text();
      t.checkContract("POST", "/context/ingest", { status: res.status, headers: res.headers, text: body });
      return { status: res.status, headers: res.headers, body: JSON.parse(body) as Record<string, unknown>, text: body };
    };
    const base: Array<[string, string]> = [
      ["database", DB],
      ["type", "knowledge"],
    ];
    const item = (id: string, size: number) => JSON.stringify([{ id, type: "note", content: { text: "w".repeat(size) } }]);
    const within = await form([...base, ["app_knowledge", item("form-ok", 100)]]);
    assert.equal(within.status, 202, within.text);
    const overBudget = await form([...base, ["app_knowledge", item("form-big", 12_000)]]);
    assert.equal(overBudget.status, 413, overBudget.text);
    assert.match(String(field(overBudget.body, "error.message")), /MAX_REQUEST_UPLOAD_BYTES/);
    const manyFields = await form([
      ...base,
      ["app_knowledge", item("form-many", 10)],
      ...Array.from({ length: 100 }, (_, i): [string, string] => [`x${i}`, "1"]),
    ]);
    assert.equal(manyFields.status, 413, manyFields.text);
    assert.match(String(field(manyFields.body, "error.message")), /at most 100 text fields/);
    await waitTerminal(t, DB, ["form-ok"]);
    assert.equal(await stored(), 3);
  });

  test("one file above MAX_UPLOAD_BYTES is still 400 FILE_TOO_LARGE", async () => {
    const res = await ingestMultipart(t, { type: "knowledge", database: DB }, [text(7000, "big.txt")]);
    assert.equal(res.status, 400, res.text);
    assert.equal(field(res.body, "error.code"), "FILE_TOO_LARGE");
    assert.equal(await stored(), 3);
    assert.deepEqual(spoolLeft(), []);
  });

  test("the v1 upload route has the same limits, in its {detail} shape", async () => {
    const res = await v1Upload(
      t,
      [1, 2, 3, 4].map((i) => text(10, `v${i}.txt`)),
    );
    assert.equal(res.status, 413, res.text);
    assert.equal(field(res.body, "detail.error_code"), "PAYLOAD_TOO_LARGE");
    assert.equal(await stored(), 3);
    assert.deepEqual(spoolLeft(), []);
  });
});
