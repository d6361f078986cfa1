import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { extractEntities, ExtractionPool } from "../../src/engines/extraction/index.js";

const TEXTS = [
  "Ada Lovelace met Charles Babbage in London on 5 June 1833.",
  "Email grace@navy.example about the launch on Friday, cc @linus and #release.",
  "Acme Corp paid $1,200 for the Globex contract last week.",
];

describe("entity extraction in worker threads", () => {
  const pool = new ExtractionPool(2);
  after(() => pool.close());

  it("returns what extraction on this thread returns, in input order", async () => {
    const context = { reference: "2024-05-08T10:00:00Z", knownPeople: ["Grace Hopper"] };
    const inWorkers = await pool.extract(TEXTS, context);
    assert.deepEqual(
      inWorkers,
      TEXTS.map((t) => extractEntities(t, context)),
    );
    assert.ok(inWorkers[0]?.mentions.some((m) => m.kind === "person" && m.surface === "Ada Lovelace"));
  });

  it("serves an urgent text while other texts are queued", async () => {
    await pool.warmUp();
    const finished: string[] = [];
    const batches = Array.from({ length: 12 }, (_, i) => pool.extract([`${TEXTS[i % 3]} Item ${i}.`.repeat(20)], {}).then(() => finished.push(`batch ${i}`)));
    const urgent = pool.extract(["Who is Ada Lovelace?"], { mode: "full" }, { urgent: true }).then((r) => {
      finished.push("urgent");
      return r;
    });
    const [[query]] = await Promise.all([urgent, Promise.all(batches)]);
    assert.ok(finished.indexOf("urgent") < finished.length - 1, `the urgent text did not wait for every queued one: ${finished.join(", ")}`);
    assert.deepEqual(query, extractEntities("Who is Ada Lovelace?", { mode: "full" }));
  });

  it("a single worker serves background texts as well as urgent ones, urgent first", { timeout: 30_000 }, async () => {
    const single = new ExtractionPool(1);
    try {
      const background = single.extract([TEXTS[0]!], {});
      const urgent = single.extract([TEXTS[1]!], {}, { urgent: true });
      assert.deepEqual(await Promise.all([background, urgent]), [[extractEntities(TEXTS[0]!, {})], [extractEntities(TEXTS[1]!, {})]]);
    } finally {
      await single.close();
    }
  });

  it("with no workers runs on the calling thread; after close nothing is accepted", async () => {
    const inline = new ExtractionPool(0);
    assert.deepEqual(await inline.extract([TEXTS[0]!], {}), [extractEntities(TEXTS[0]!, {})]);
    const closing = new ExtractionPool(1);
    const pending = assert.rejects(closing.extract(TEXTS, {}), /closed/);
    await closing.close();
    await pending;
    await assert.rejects(closing.extract(TEXTS, {}), /closed/);
  });
});
