import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

interface Row {
  id: string;
  status: string;
  file_name?: string;
  error_code?: string;
}

const rows = (body: Record<string, unknown>): Row[] => field<Row[]>(body, "data.results");
const ENGLISH = "The lighthouse keeper logs every passing ship in a blue notebook.";

describe("the same file twice is not stored twice", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "dups");
  });
  after(async () => t.close());

  const itemsWith = async (collection: string, titleLike: string): Promise<string[]> =>
    (await t.app.store.db.selectFrom("context_items").select("source_id").where("collection", "=", collection).where("title", "like", titleLike).execute()).map(
      (r) => r.source_id,
    );

  test("re-uploading the same bytes without an id answers with the stored item; query shows its chunk once", async () => {
    const first = await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c1" }, [
      { name: "keeper.txt", content: ENGLISH, type: "text/plain" },
    ]);
    assert.equal(first.status, 202, first.text);
    const [stored] = rows(first.body);
    assert.equal(stored?.status, "queued");
    assert.equal(stored?.file_name, "keeper.txt");
    await waitTerminal(t, "dups", [stored.id], "c1");

    const again = await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c1" }, [
      { name: "keeper-copy.txt", content: ENGLISH, type: "text/plain" },
    ]);
    assert.equal(again.status, 202, again.text);
    assert.deepEqual(rows(again.body), [{ id: stored.id, status: "duplicate", file_name: "keeper-copy.txt" }]);
    assert.equal(field(again.body, "data.success"), true);
    assert.equal(field(again.body, "data.success_count"), 1);
    assert.equal(field(again.body, "data.duplicate_count"), 1);
    assert.equal(field(again.body, "data.failed_count"), 0);
    assert.deepEqual(await itemsWith("c1", "keeper%"), [stored.id], "one item, not two");

    const query = await t.request("POST", "/query", { body: { database: "dups", collection: "c1", query: "lighthouse keeper notebook", max_results: 10 } });
    assert.equal(query.status, 200, query.text);
    const hits = field<Array<{ chunk_content: string }>>(query.body, "data.chunks").filter((c) => c.chunk_content.includes("lighthouse keeper"));
    assert.equal(hits.length, 1, "the chunk comes back once");
  });

  test("another collection, allow_duplicates=true and an explicit id each store the file", async () => {
    const file = { name: "fox.txt", content: "A quick brown fox jumps over the lazy dog near the river.", type: "text/plain" };
    const a = rows((await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c2" }, [file])).body)[0]!;
    const b = rows((await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c3" }, [file])).body)[0]!;
    assert.equal(a.status, "queued");
    assert.equal(b.status, "queued", "the same bytes in another collection are a new item");
    assert.notEqual(a.id, b.id);

    const kept = rows((await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c2", allow_duplicates: "true" }, [file])).body)[0]!;
    assert.equal(kept.status, "queued");
    assert.notEqual(kept.id, a.id);
    const named = rows(
      (await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c2", document_metadata: JSON.stringify([{ id: "fox-named" }]) }, [file]))
        .body,
    )[0]!;
    assert.deepEqual(named, { id: "fox-named", status: "queued", file_name: "fox.txt" }, "a named file is upserted by its id");
    assert.deepEqual((await itemsWith("c2", "fox%")).sort(), [a.id, kept.id, "fox-named"].sort());

    const bad = await ingestMultipart(t, { type: "knowledge", database: "dups", allow_duplicates: "maybe" }, [file]);
    assert.equal(bad.status, 400);
  });

  test("one call: identical files pair up, each row names its file; failed rows too", async () => {
    const same = "Identical twins in one request share a single stored item.";
    const res = await ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c4" }, [
      { name: "one.txt", content: same, type: "text/plain" },
      { name: "two.txt", content: same, type: "text/plain" },
      { name: "other.md", content: "# Other\n\nA different file.", type: "text/markdown" },
      { name: "blob.bin", content: new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3]), type: "application/octet-stream" },
    ]);
    assert.equal(res.status, 202, res.text);
    const [one, two, other, blob] = rows(res.body);
    assert.deepEqual([one?.status, one?.file_name], ["queued", "one.txt"]);
    assert.deepEqual(two, { id: one!.id, status: "duplicate", file_name: "two.txt" });
    assert.deepEqual([other?.status, other?.file_name], ["queued", "other.md"]);
    assert.deepEqual([blob?.status, blob?.file_name, blob?.error_code], ["failed", "blob.bin", "INVALID_FILE_FORMAT"]);
    assert.equal((await itemsWith("c4", "%")).length, 2);
  });

  test("two concurrent uploads of the same new file store it once", async () => {
    const file = { name: "race.txt", content: "Two uploads race to store the same harbour timetable.", type: "text/plain" };
    const [x, y] = await Promise.all([
      ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c5" }, [file]),
      ingestMultipart(t, { type: "knowledge", database: "dups", collection: "c5" }, [file]),
    ]);
    const statuses = [rows(x.body)[0]!, rows(y.body)[0]!];
    assert.deepEqual(statuses.map((r) => r.status).sort(), ["duplicate", "queued"]);
    assert.equal(statuses[0]!.id, statuses[1]!.id);
    assert.equal((await itemsWith("c5", "%")).length, 1);
  });
});
