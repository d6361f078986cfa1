import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createLocalEmbedder } from "../../src/engines/embeddings/local-embedder.js";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

interface Chunk {
  id: string;
  chunk_content: string;
  relevancy_score: number;
  timestamp: string;
}

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

describe("POST /query ranking: alpha, recency_bias, neighbouring turns, speakers, feedback", () => {
  let t: TestApp;
  const q = (body: Record<string, unknown>): Promise<HttpResult> => t.request("POST", "/query", { body: { database: "rank", graph_context: false, ...body } });
  const chunks = (res: HttpResult): Chunk[] => {
    assert.equal(res.status, 200, res.text);
    return field<Chunk[]>(res.body, "data.chunks");
  };
  const ids = (res: HttpResult): string[] => chunks(res).map((c) => c.id);
  const docs = [
    { id: "solar", text: "Solar panels on the roof turn sunlight into electricity for the whole house." },
    { id: "garden", text: "The vegetable garden gets morning sunlight and needs water twice a week." },
    { id: "cars", text: "Electric cars charge overnight from the grid at a cheaper tariff." },
    { id: "tax", text: "The quarterly tax return is due at the end of the month." },
    { id: "pasta", text: "Boil the pasta for nine minutes and keep a cup of the cooking water." },
  ];
  const now = Date.now();

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "rank");
    const items = [
      ...docs.map((d) => ({ id: d.id, type: "note", title: d.id, content: { text: d.text }, timestamp: iso(now - 10 * DAY) })),
      // same text, the older ingested first: without recency they tie and keep ingestion order
      {
        id: "old-memo",
        type: "note",
        title: "Lighthouse",
        content: { text: "Lighthouse keepers log the fog horn schedule." },
        timestamp: iso(now - 900 * DAY),
      },
      { id: "new-memo", type: "note", title: "Lighthouse", content: { text: "Lighthouse keepers log the fog horn schedule." }, timestamp: iso(now - DAY) },
    ];
    assert.equal((await ingestMultipart(t, { type: "knowledge", database: "rank", app_knowledge: JSON.stringify(items) })).status, 202);
    const session = Date.parse("2023-05-08T13:56:00Z");
    const turns = [
      ["t1", "Bob", "Guess what, on Saturday I finally visited the animal shelter downtown!"],
      ["t2", "Alice", "Oh wow, tell me everything, how did it go?"],
      ["t3", "Bob", "We came home with a tiny grey kitten and named her Pixel."],
      ["t4", "Alice", "I finally finished the pottery class."],
      ["t5", "Bob", "I finished the pottery class as well."],
      ["t6", "Alice", "The bus shelter on our street was repainted."],
      ["t8", "Alice", "What did the mechanic say about the brakes?"],
    ];
    const memories = turns.map(([id, speaker, text], i) => ({ id, text, user_name: speaker, timestamp: iso(session + i * 1000) }));
    const res = await t.request("POST", "/context/ingest", { body: { type: "memory", database: "rank", collection: "chat", memories } });
    assert.equal(res.status, 202, res.text);
    // Two episodes of one conversation, six weeks apart: the first plans a lake house trip and,
    // two turns later, packs a kayak; the second names a kayak in a shorter turn.
    const trip = Date.parse("2023-05-08T10:00:00Z");
    const later = Date.parse("2023-06-20T18:00:00Z");
    const episodes: Array<{ id: string; text: string; user_name: string; timestamp: string; additional_metadata?: Record<string, string> }> = [
      { id: "x1", text: "The lake house is booked for the long weekend.", user_name: "Alice", timestamp: iso(trip), additional_metadata: { part: "plan" } },
      { id: "x2", text: "Nice, I can't wait!", user_name: "Bob", timestamp: iso(trip + 60_000) },
      { id: "x3", text: "I packed the kayak and the life vests into the car already.", user_name: "Alice", timestamp: iso(trip + 120_000) },
      { id: "x4", text: "Perfect, see you Friday.", user_name: "Bob", timestamp: iso(trip + 180_000) },
      { id: "y1", text: "The kayak paddle snapped.", user_name: "Bob", timestamp: iso(later) },
      { id: "y2", text: "Oh no, get a new one.", user_name: "Alice", timestamp: iso(later + 60_000) },
    ];
    const tagged = episodes.map((m) => (m.additional_metadata ? m : { ...m, additional_metadata: { part: "talk" } }));
    const trips = await t.request("POST", "/context/ingest", { body: { type: "memory", database: "rank", collection: "trips", memories: tagged } });
    assert.equal(trips.status, 202, trips.text);
    // One long manual whose every chunk names the kestrel firmware, and two short notes that do too.
    const paragraph = (n: number): string =>
      `Section ${n}. The kestrel firmware update ${"checks the bootloader signature, copies the image to the spare bank, verifies its checksum and reboots the controller; ".repeat(12)}`;
    const manual = Array.from({ length: 8 }, (_, n) => paragraph(n + 1)).join("\n\n");
    const notes = [
      { id: "manual", type: "note", title: "Kestrel manual", content: { text: manual } },
      { id: "note-a", type: "note", title: "Note A", content: { text: "Ask Dana before the kestrel firmware update on the north site." } },
      { id: "note-b", type: "note", title: "Note B", content: { text: "The kestrel firmware update failed once on a controller with a full disk." } },
    ];
    const ingested = await ingestMultipart(t, { type: "knowledge", database: "rank", collection: "manuals", app_knowledge: JSON.stringify(notes) });
    assert.equal(ingested.status, 202, ingested.text);
    await waitTerminal(t, "rank", [...docs.map((d) => d.id), "old-memo", "new-memo"]);
    await waitTerminal(
      t,
      "rank",
      notes.map((n) => n.id),
      "manuals",
    );
    await waitTerminal(
      t,
      "rank",
      turns.map(([id]) => id!),
      "chat",
    );
    await waitTerminal(
      t,
      "rank",
      episodes.map((m) => m.id),
      "trips",
    );
  });
  after(async () => t.close());

  test("alpha 0 ranks exactly as BM25 (query_by text); alpha 1 ranks by dense similarity", async () => {
    const query = "sunlight electricity water";
    const bm25 = ids(await q({ query, query_by: "text", max_results: 10 }));
    assert.ok(bm25.length >= 3);
    assert.deepEqual(ids(await q({ query, alpha: 0, max_results: 10 })).slice(0, bm25.length), bm25);

    const dense = chunks(await q({ query, alpha: 1, max_results: 10 }));
    assert.equal(dense.length, 7);
    const embedder = await createLocalEmbedder({ workers: 1 });
    try {
      // the stored vectors embed the rendered chunk text
      const [qv, ...vectors] = await embedder.embed([query, ...dense.map((c) => c.chunk_content)]);
      const cos = (v: Float32Array): number => v.reduce((s, x, i) => s + x * qv![i]!, 0);
      const similarity = vectors.map((v) => cos(v));
      for (let i = 1; i < similarity.length; i++) assert.ok(similarity[i - 1]! >= similarity[i]! - 1e-6, `dense order at ${i}: ${JSON.stringify(similarity)}`);
    } finally {
      await embedder.close();
    }
  });

  test("recency_bias 0 scores equal texts equally whatever their age; recency_bias 1 puts the newer first", async () => {
    const query = "lighthouse fog horn schedule";
    const plain = chunks(await q({ query, max_results: 2 }));
    assert.deepEqual(
      plain.map((c) => c.relevancy_score),
      [1, 1],
    );
    assert.deepEqual(plain.map((c) => c.id).sort(), ["new-memo", "old-memo"]);
    const recent = chunks(await q({ query, max_results: 10, recency_bias: 1 }));
    const at = (id: string): number => recent.findIndex((c) => c.id === id);
    assert.equal(recent[0]!.id, "new-memo");
    assert.ok(at("old-memo") === -1 || recent[at("old-memo")]!.relevancy_score < 0.01, "a 900-day-old match keeps almost nothing at full bias");
    const half = chunks(await q({ query, max_results: 2, recency_bias: 0.5 }));
    assert.deepEqual(
      half.map((c) => c.id),
      ["new-memo", "old-memo"],
    );
    assert.ok(Math.abs(half[1]!.relevancy_score - 0.5) < 0.01, "half the bias keeps about half the score of an old match");
  });

  test("memories carry their timestamp; a turn next to the matching one is brought in (neighbouring context)", async () => {
    const hits = chunks(await q({ query: "What did Bob do at the animal shelter?", type: "memory", collection: "chat", max_results: 3 }));
    assert.equal(hits[0]!.id, "t1");
    assert.equal(hits[0]!.timestamp, "2023-05-08T13:56:00.000Z");
    assert.equal(hits[1]!.id, "t2", `t2 shares no word with the question but follows t1: ${JSON.stringify(hits.map((h) => h.id))}`);
    const text = ids(await q({ query: "What did Bob do at the animal shelter?", type: "memory", collection: "chat", query_by: "text" }));
    assert.equal(text[0], "t1");
    assert.ok(!text.includes("t2"), "text mode returns keyword matches only, no neighbours");
  });

  test("a memory is ranked in its episode: a turn whose conversation also matches the question's other words comes first", async () => {
    const question = { query: "Which kayak did we take to the lake house?", type: "memory", collection: "trips", alpha: 0, max_results: 6 };
    // alone, the shorter turn matches "kayak" better
    const text = ids(await q({ ...question, query_by: "text" }));
    assert.ok(text.indexOf("y1") < text.indexOf("x3"), `BM25 alone: ${JSON.stringify(text)}`);
    // in context, x3's episode also names the lake house (x1, two turns before it)
    for (const mode of ["fast", "thinking"]) {
      const ranked = ids(await q({ ...question, mode }));
      assert.ok(ranked.indexOf("x3") >= 0 && ranked.indexOf("x3") < ranked.indexOf("y1"), `${mode}: ${JSON.stringify(ranked)}`);
    }
  });

  test("a memory its query may not see lends its episode nothing", async () => {
    // x1 (the lake house) filtered out: x3's episode no longer names it, and the shorter turn wins again
    const ranked = ids(
      await q({
        query: "Which kayak did we take to the lake house?",
        type: "memory",
        collection: "trips",
        alpha: 0,
        max_results: 6,
        metadata_filters: { additional_metadata: { part: "talk" } },
      }),
    );
    assert.ok(!ranked.includes("x1"), JSON.stringify(ranked));
    assert.ok(ranked.indexOf("y1") >= 0 && ranked.indexOf("y1") < ranked.indexOf("x3"), JSON.stringify(ranked));
  });

  test("a memory timestamp that is not a date is 400", async () => {
    const res = await t.request("POST", "/context/ingest", {
      body: { type: "memory", database: "rank", memories: [{ text: "x", timestamp: "last tuesday" }] },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
  });

  test("the speaker a question names (user_name) ranks first among equal matches", async () => {
    const alice = ids(await q({ query: "What did Alice finish in pottery class?", type: "memory", collection: "chat", max_results: 5 }));
    assert.equal(alice[0], "t4");
    const bob = ids(await q({ query: "What did Bob finish in pottery class?", type: "memory", collection: "chat", max_results: 5 }));
    assert.equal(bob[0], "t5");
  });

  test("thinking mode gives other items a place before a fourth chunk of one item", async () => {
    const body = { query: "kestrel firmware bootloader signature and checksum", collection: "manuals", max_results: 6 };
    const fast = ids(await q(body));
    // the case the rule is for: fast mode ranks the manual's chunks ahead of both notes
    assert.ok(
      fast.slice(0, 4).every((id) => id === "manual"),
      `fast: ${fast.join(", ")}`,
    );
    const thinking = ids(await q({ ...body, mode: "thinking" }));
    const firstNote = thinking.findIndex((id) => id !== "manual");
    assert.ok(firstNote >= 0 && firstNote <= 3, `at most 3 chunks of the manual before a note; thinking: ${thinking.join(", ")}`);
    // moved behind, not dropped: the manual's further chunks follow
    assert.ok(thinking.slice(firstNote).includes("manual"), `thinking: ${thinking.join(", ")}`);
  });

  test("feedback never changes query results", async () => {
    const body = { query: "electric cars and solar electricity", max_results: 5, mode: "thinking" };
    const first = await q(body);
    const before = chunks(first).map((c) => [c.id, c.relevancy_score]);
    const requestId = field<string>(first.body, "meta.request_id");
    for (const rating of ["negative", "positive"]) {
      const fb = await t.request("POST", "/feedback", {
        body: { request_id: requestId, database: "rank", feedback: "wrong order", rating, ground_truth: { source_ids: ["pasta"] } },
      });
      assert.equal(fb.status, 201, fb.text);
    }
    assert.deepEqual(
      chunks(await q(body)).map((c) => [c.id, c.relevancy_score]),
      before,
    );
  });
});
