import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { startFakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";

const DIMS = 16;

test(
  "a small collection's dense search finds its nearest chunks when a larger collection's, nearer the query, share the index",
  { timeout: 180_000 },
  async () => {
    // On PostgreSQL every collection of a corpus shares one HNSW index. A plain scan of it returns
    // its ef_search nearest and then filters them by collection: here all of those are the large
    // collection's, and the small one would get nothing. The sessions' iterative scan goes on until
    // enough rows pass the filter (store/db.ts). SQLite keeps an index per collection.
    // The fake endpoint embeds a text as its letter histogram: "aaaa..." texts are near the query
    // "aaaa", texts of other letters far from it.
    const embeddings = await startFakeEmbeddingsServer(DIMS);
    const t = await startTestApp({
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_BASE_URL: embeddings.baseUrl,
      EMBEDDING_MODEL: "fake",
      EMBEDDING_DIMENSIONS: String(DIMS),
      RATE_LIMIT_PER_MINUTE: "0",
    });
    try {
      await createReadyDatabase(t, "filtered");
      const ingest = async (collection: string, items: Array<{ id: string; text: string }>): Promise<void> => {
        const body = JSON.stringify(items.map((i) => ({ id: i.id, type: "note", content: { text: i.text } })));
        const res = await ingestMultipart(t, { type: "knowledge", database: "filtered", collection, app_knowledge: body });
        assert.equal(res.status, 202, res.text);
        const rows = await waitTerminal(
          t,
          "filtered",
          items.map((i) => i.id),
          collection,
          120_000,
        );
        assert.ok(
          rows.every((r) => r.indexing_status === "completed"),
          JSON.stringify(rows.filter((r) => r.indexing_status !== "completed")),
        );
      };
      const big = Array.from({ length: 300 }, (_, i) => ({ id: `big-${i}`, text: `${"a".repeat(40)} ${"bcdefghijk"[i % 10]!.repeat(1 + (i % 7))}` }));
      const small = Array.from({ length: 5 }, (_, i) => ({ id: `small-${i}`, text: `${"a".repeat(3)} ${"xyz".repeat(5 + i)}` }));
      await ingest("big", big);
      await ingest("small", small);

      const database = await t.app.store.db.selectFrom("databases").select("id").where("name", "=", "filtered").executeTakeFirstOrThrow();
      const scope = (collection: string) => ({ orgId: t.orgId, databaseId: database.id, corpus: "knowledge" as const, collection });
      const keysOf = async (sourceIds: string[]): Promise<number[]> =>
        (
          await t.app.store.db
            .selectFrom("context_chunks as c")
            .innerJoin("context_items as i", "i.id", "c.item_id")
            .select("c.chunk_key")
            .where("i.database_id", "=", database.id)
            .where("i.source_id", "in", sourceIds)
            .execute()
        )
          .map((r) => Number(r.chunk_key))
          .sort((a, b) => a - b);
      const smallKeys = await keysOf(small.map((s) => s.id));
      const bigKeys = new Set(await keysOf(big.map((b) => b.id)));
      assert.equal(smallKeys.length, small.length);

      const query = new Float32Array(DIMS);
      query["a".charCodeAt(0) % DIMS] = 1;
      // Repeated: each search may run on another pooled session, and every one must have the setting.
      for (let round = 0; round < 12; round++) {
        const hits = await t.app.vectors.search(scope("small"), query, 5);
        assert.deepEqual(
          hits.map((h) => h.chunkKey).sort((a, b) => a - b),
          smallKeys,
          `round ${round}`,
        );
      }
      const nearest = await t.app.vectors.search(scope("big"), query, 5);
      assert.equal(nearest.length, 5);
      for (const hit of nearest) assert.ok(bigKeys.has(hit.chunkKey), "the large collection's search sees only its own");
    } finally {
      await t.close();
      await embeddings.close();
    }
  },
);
