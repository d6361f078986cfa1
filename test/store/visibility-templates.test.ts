import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestApp } from "../helpers/context.js";
import { ChunkStore } from "../../src/features/search/chunk-store.js";
import { visibleItem } from "../../src/features/items/visibility-store.js";
import type { Visibility } from "../../src/features/items/item-visibility.js";

// The query path's visibility statements are compiled once per shape when the visibility has no
// filters (visibilityTemplate): what they admit must be what the predicate built afresh admits,
// for every shape (principals or none, one or two collections) and on every run of a shape.

let t: TestApp;
let base: Pick<Visibility, "orgId" | "databaseId">;
let chunks: Array<{ chunk_key: number; item_id: string; source_id: string }>;

before(async () => {
  t = await startTestApp();
  await createReadyDatabase(t, "vis");
  await ingestApp(t, "vis", [
    { id: "open", type: "note", title: "Open", content: { text: "The harbour opens at dawn." } },
    { id: "board", type: "memo", title: "Board", content: { text: "The board meets at dusk." }, acl: ["domain:board.example.com"] },
  ]);
  await ingestApp(t, "vis", [{ id: "second", type: "note", title: "Second", content: { text: "A second collection's note." } }], { collection: "second" });
  const db = await t.app.store.db.selectFrom("databases").select(["id", "org_id"]).where("name", "=", "vis").executeTakeFirstOrThrow();
  base = { orgId: db.org_id, databaseId: db.id };
  chunks = (
    await t.app.store.db
      .selectFrom("context_chunks as c")
      .innerJoin("context_items as i", "i.id", "c.item_id")
      .select(["c.chunk_key", "c.item_id", "i.source_id"])
      .where("c.database_id", "=", db.id)
      .execute()
  ).map((r) => ({ ...r, chunk_key: Number(r.chunk_key) }));
});
after(async () => t.close());

const visibility = (principals: readonly string[] | null, collections: readonly string[]): Visibility => ({
  ...base,
  collection: collections[0]!,
  collections,
  corpora: ["knowledge"],
  ids: null,
  metadata: {},
  additional: {},
  sourceFields: {},
  principals,
  now: Date.now(),
  excludeConnectorItems: true,
});

/** The source ids the predicate admits, built by Kysely for this one run. */
async function reference(v: Visibility): Promise<string[]> {
  const rows = await t.app.store.db
    .selectFrom("context_items as i")
    .select("i.source_id")
    .where(visibleItem(t.app.store.backend, "i", v))
    .execute();
  return rows.map((r) => r.source_id).sort();
}

test("a visibility without filters admits through its compiled statements exactly what its predicate admits", async () => {
  const store = new ChunkStore(t.app.store.reader, t.app.store.backend);
  const sourceOf = new Map(chunks.map((c) => [c.chunk_key, c.source_id]));
  const cases: Array<[readonly string[] | null, readonly string[], string[]]> = [
    [null, ["vis"], ["board", "open"]],
    [["someone@example.com", "domain:example.com"], ["vis"], ["open"]],
    [["chair@board.example.com", "domain:board.example.com"], ["vis"], ["board", "open"]],
    [null, ["vis", "second"], ["board", "open", "second"]],
    [
      ["someone@example.com", "domain:example.com"],
      ["vis", "second"],
      ["open", "second"],
    ],
  ];
  // Twice over: the first run of a shape compiles it, the second reuses it with these values.
  for (const round of [1, 2]) {
    for (const [principals, collections, expected] of cases) {
      const v = visibility(principals, collections);
      const label = `round ${round}, principals ${JSON.stringify(principals)}, collections ${collections.join(",")}`;
      assert.deepEqual(await reference(v), expected, `predicate: ${label}`);
      const among = (await store.visibleAmong(v, [...sourceOf.keys()])).map((k) => sourceOf.get(k)!).sort();
      assert.deepEqual(among, expected, `visibleAmong: ${label}`);
      const items = (await store.visibleItems(v, [...new Set(chunks.map((c) => c.item_id))])).map((i) => i.source_id).sort();
      assert.deepEqual(items, expected, `visibleItems: ${label}`);
    }
  }
});
