import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { makeDocxBomb } from "../helpers/make-zip.js";

const DB = "bombs";
const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

describe("DOCX zip bombs are refused before they are inflated", () => {
  let t: TestApp;
  const storedIds = async (): Promise<string[]> => {
    const res = await t.request("POST", "/context/list", { body: { database: DB } });
    assert.equal(res.status, 200, res.text);
    return field<Array<{ id: string }>>(res.body, "data.sources")
      .map((s) => s.id)
      .sort();
  };

  before(async () => {
    t = await startTestApp({ MAX_ARCHIVE_COMPRESSION_RATIO: "100", MAX_ARCHIVE_UNCOMPRESSED_BYTES: String(64 * 1024 * 1024) });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("a bomb whose directory tells the truth fails at once with FILE_TOO_LARGE and is not stored", async () => {
    const bomb = makeDocxBomb(16 * 1024 * 1024);
    const file = { name: "bomb.docx", content: bomb, type: DOCX_MIME };
    // Alone in its request: the request is refused (nothing would be stored).
    const alone = await ingestMultipart(t, { type: "knowledge", database: DB, document_metadata: JSON.stringify([{ id: "bomb" }]) }, [file]);
    assert.equal(alone.status, 400, alone.text);
    assert.equal(field(alone.body, "error.code"), "FILE_TOO_LARGE");
    assert.match(String(field(alone.body, "error.message")), /compresses \d+:1, above 100:1/);
    // Beside an acceptable item: a failed row of its own.
    const beside = await ingestMultipart(
      t,
      {
        type: "knowledge",
        database: DB,
        document_metadata: JSON.stringify([{ id: "bomb" }]),
        app_knowledge: JSON.stringify([{ id: "fine", content: { text: "A fine note." } }]),
      },
      [file],
    );
    assert.equal(beside.status, 202, beside.text);
    const [row] = field<Array<Record<string, unknown>>>(beside.body, "data.results");
    assert.equal(row?.status, "failed");
    assert.equal(row?.error_code, "FILE_TOO_LARGE");
    assert.match(String(row?.message), /compresses \d+:1, above 100:1/);
    assert.equal(field(beside.body, "data.failed_count"), 1);
    await waitTerminal(t, DB, ["fine"]);
    assert.deepEqual(await storedIds(), ["fine"]);
  });

  test("a bomb whose directory lies is stored, then ends errored with FILE_TOO_LARGE, inflated no further than its declared size", async () => {
    const liar = makeDocxBomb(16 * 1024 * 1024, 2000);
    const res = await ingestMultipart(t, { type: "knowledge", database: DB, document_metadata: JSON.stringify([{ id: "liar" }]) }, [
      { name: "liar.docx", content: liar, type: DOCX_MIME },
    ]);
    assert.equal(res.status, 202, res.text);
    const [status] = await waitTerminal(t, DB, ["liar"]);
    assert.equal(status?.indexing_status, "errored");
    assert.equal(status?.error_code, "FILE_TOO_LARGE");
    assert.match(String(status?.message), /inflates beyond its declared size/);
    const item = await t.app.store.db.selectFrom("context_items").select("id").where("source_id", "=", "liar").executeTakeFirstOrThrow();
    const chunks = await t.app.store.db.selectFrom("context_chunks").select("item_id").where("item_id", "=", item.id).execute();
    assert.equal(chunks.length, 0);
  });
});
