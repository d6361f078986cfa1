import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import type { GraphContextRequest, RetrievedChunk } from "../../src/features/context-graph/index.js";
import { SLACK_ROOT, slackThread } from "./graph-fixtures.js";
import { readTriplets, type StoredTriplet } from "../../src/features/context-graph/graph-read-store.js";
import type { TraversalScope } from "../../src/features/context-graph/traversal-store.js";

describe("graph context for POST /query and connected items for thinking mode", () => {
  let t: TestApp;
  let databaseId = "";
  let orgId = "";
  const chunksOf = async (sourceId: string): Promise<RetrievedChunk[]> =>
    t.app.store.db
      .selectFrom("context_chunks as c")
      .innerJoin("context_items as i", "i.id", "c.item_id")
      .select(["c.chunk_uuid", "c.item_id", "i.source_id", "i.collection", "c.content"])
      .where("i.source_id", "=", sourceId)
      .where("i.database_id", "=", databaseId)
      .execute();
  const request = (over: Partial<GraphContextRequest>): GraphContextRequest => ({
    orgId,
    databaseId,
    corpus: "knowledge",
    collections: ["ctx"],
    queryText: "",
    chunks: [],
    principals: null,
    mode: "fast",
    ...over,
  });

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "ctx");
    await ingestApp(t, "ctx", [
      { id: "n1", type: "note", title: "John", content: { text: "John Smith works at Microsoft and lives in Seattle." } },
      { id: "n2", type: "note", title: "Microsoft", content: { text: "Grace Hopper works at Microsoft." } },
      { id: "secret", type: "note", title: "Secret", content: { text: "John Smith lives in Paris." }, acl: ["ada@example.com"] },
      ...slackThread,
      { id: "ticket", type: "ticket", title: "Ticket", content: { text: "Follow-up" }, relations: { ids: [`slack:message:${SLACK_ROOT}`] } },
    ]);
    const row = await t.app.store.db.selectFrom("databases").select(["id", "org_id"]).where("name", "=", "ctx").executeTakeFirstOrThrow();
    databaseId = row.id;
    orgId = row.org_id;
  });
  after(async () => t.close());

  test("query_paths start at the entities the query names, lowercase included", async () => {
    for (const queryText of ["Where does John Smith work?", "where does john smith work"]) {
      const ctx = await t.app.graphContext.graphContextFor(request({ queryText }));
      const first = ctx.query_paths[0];
      assert.ok(first, queryText);
      assert.equal(first.group_id, "q_0");
      const works = ctx.query_paths.flatMap((p) => p.triplets).find((s) => s.relation.canonical_predicate === "works_at");
      assert.equal(works?.source.name, "John Smith");
      assert.equal(works?.target.name, "Microsoft");
      assert.ok(
        ctx.query_paths.every((p, i) => i === 0 || (ctx.query_paths[i - 1]?.relevancy_score ?? 0) >= p.relevancy_score),
        "best first",
      );
    }
    const none = await t.app.graphContext.graphContextFor(request({ queryText: "zzz qqq" }));
    assert.deepEqual(none.query_paths, []);
  });

  test("fast mode's query paths are the retrieved chunks' relations of the named entities whenever they have one", async () => {
    const people = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Margaret Hamilton", "Tim Berners"];
    const cities = ["London", "Paris", "Berlin", "Madrid", "Rome", "Vienna"];
    await ingestApp(
      t,
      "ctx",
      [
        { id: "old", type: "note", title: "Old", content: { text: "Mary Jones works at Microsoft and lives in Seattle." } },
        {
          id: "crowd",
          type: "note",
          title: "Crowd",
          content: { text: [...people.map((p) => `Mary Jones met ${p}.`), ...cities.map((c) => `Mary Jones visited ${c}.`)].join(" ") },
        },
      ],
      { collection: "crowd" },
    );
    const crowd = await chunksOf("crowd");
    const old = await chunksOf("old");
    const inCrowd = new Set(crowd.map((c) => c.chunk_uuid));
    // The query names both ends of the older item's relation: that path scores twice a one-ended one.
    const ask = (chunks: RetrievedChunk[]) =>
      t.app.graphContext.graphContextFor(request({ collections: ["crowd"], queryText: "Did Mary Jones meet anyone from Microsoft?", chunks }));
    const reachesMicrosoft = (ctx: Awaited<ReturnType<typeof ask>>) => ctx.query_paths.some((p) => p.triplets.some((s) => s.target.name === "Microsoft"));
    const fromResults = await ask(crowd);
    assert.equal(fromResults.query_paths.length, 10);
    assert.ok(
      fromResults.query_paths.every((p) => p.source_chunk_ids.length > 0 && p.source_chunk_ids.every((id) => inCrowd.has(id))),
      "every path comes from the retrieved chunks",
    );
    assert.ok(!reachesMicrosoft(fromResults), "the named entities' relations elsewhere are not read");
    // Results with few such relations give those alone: the crowd's are not read to fill up.
    const fromOld = await ask(old);
    const inOld = new Set(old.map((c) => c.chunk_uuid));
    assert.ok(fromOld.query_paths.length >= 1 && fromOld.query_paths.length < 10, `paths: ${fromOld.query_paths.length}`);
    assert.ok(
      fromOld.query_paths.every((p) => p.source_chunk_ids.every((id) => inOld.has(id))),
      "every path comes from the retrieved chunk",
    );
    assert.equal(fromOld.query_paths[0]?.triplets[0]?.target.name, "Microsoft");
    // Results without one: the named entities' own relations are read, best first.
    const filled = await ask([]);
    assert.equal(filled.query_paths.length, 10);
    assert.ok(reachesMicrosoft(filled));
    assert.equal(filled.query_paths[0]?.triplets[0]?.target.name, "Microsoft");
  });

  test("a first name alone in the query reaches the person it is short for", async () => {
    // No stored entity is named "Grace": the query's proper noun is resolved as a person's name.
    const ctx = await t.app.graphContext.graphContextFor(request({ queryText: "Where does Grace work?" }));
    const works = ctx.query_paths.flatMap((p) => p.triplets).find((s) => s.relation.canonical_predicate === "works_at");
    assert.equal(works?.source.name, "Grace Hopper");
    assert.equal(works?.target.name, "Microsoft");
  });

  test("chunk_relations and chunk_id_to_group_ids come from the retrieved chunks", async () => {
    const chunks = await chunksOf("n1");
    assert.ok(chunks.length > 0);
    const ctx = await t.app.graphContext.graphContextFor(request({ queryText: "Microsoft", chunks }));
    const group = ctx.chunk_relations[0];
    assert.equal(group?.group_id, "p_0");
    assert.deepEqual(group?.source_chunk_ids, [chunks[0]?.chunk_uuid]);
    assert.ok(group?.triplets.some((s) => s.relation.canonical_predicate === "lives_in"));
    assert.match(group?.combined_context ?? "", /works at Microsoft/);
    assert.ok(ctx.chunk_id_to_group_ids[chunks[0]?.chunk_uuid ?? ""]?.includes("p_0"));
  });

  test("thinking mode adds relations of the chunk's entities read elsewhere and two-hop paths", async () => {
    const chunks = await chunksOf("n1");
    const fast = await t.app.graphContext.graphContextFor(request({ queryText: "John Smith", chunks }));
    const deep = await t.app.graphContext.graphContextFor(request({ queryText: "John Smith", chunks, mode: "thinking" }));
    const names = (ctx: typeof deep) => ctx.chunk_relations.flatMap((p) => p.triplets.map((s) => s.source.name));
    assert.ok(!names(fast).includes("Grace Hopper"));
    assert.ok(names(deep).includes("Grace Hopper"), "n2 is linked through Microsoft");
    assert.ok(deep.query_paths.some((p) => p.triplets.length === 2));
  });

  test("acl: relations of items the caller cannot see never appear", async () => {
    const paths = async (principals: string[] | null) =>
      (await t.app.graphContext.graphContextFor(request({ queryText: "John Smith", principals }))).query_paths.flatMap((p) =>
        p.triplets.map((s) => s.target.name),
      );
    assert.ok((await paths(null)).includes("Paris"));
    assert.ok((await paths(["ada@example.com"])).includes("Paris"));
    assert.ok(!(await paths(["bob@example.com"])).includes("Paris"));
  });

  test("an entity's triplets are the first visible ones in key order, whatever the limit, as a scan of the scope finds them", async () => {
    const scope = (principals: string[] | null): TraversalScope => ({
      backend: t.app.store.backend,
      orgId,
      databaseId,
      corpus: "knowledge",
      collection: "ctx",
      principals,
      now: Date.now(),
    });
    const john = (await readTriplets(t.app.store.reader, scope(null), {}, 0, 1_000)).find((r) => r.source.name === "John Smith")?.source.entity_id;
    assert.ok(john);
    const microsoft = (await readTriplets(t.app.store.reader, scope(null), {}, 0, 1_000)).find((r) => r.target.name === "Microsoft")?.target.entity_id;
    assert.ok(microsoft);
    const entitySets: string[][] = [[john], [john, microsoft]];
    for (const principals of [null, ["bob@example.com"], ["ada@example.com"]]) {
      const all = await readTriplets(t.app.store.reader, scope(principals), {}, 0, 1_000);
      for (const entities of entitySets) {
        const touching: StoredTriplet[] = all.filter((r) => entities.includes(r.source.entity_id) || entities.includes(r.target.entity_id));
        assert.ok(touching.length >= 2, `${entities.length} entities, ${JSON.stringify(principals)}`);
        for (const limit of [1, 2, touching.length, touching.length + 5]) {
          const read = await readTriplets(t.app.store.reader, scope(principals), { entityIds: entities }, 0, limit);
          assert.deepEqual(
            read.map((r) => r.key),
            touching.slice(0, limit).map((r) => r.key),
            `limit ${limit}, ${entities.length} entities, ${JSON.stringify(principals)}`,
          );
        }
        const after = touching[0]!.key;
        const rest = await readTriplets(t.app.store.reader, scope(principals), { entityIds: entities }, after, 1_000);
        assert.deepEqual(
          rest.map((r) => r.key),
          touching.slice(1).map((r) => r.key),
        );
      }
    }
    // Paris is John's only in the item Bob may not see.
    const forBob = await readTriplets(t.app.store.reader, scope(["bob@example.com"]), { entityIds: [john] }, 0, 1_000);
    assert.ok(!forBob.some((r) => r.target.name === "Paris"));
  });

  test("relatedItems: items within 1-2 hops, nearest first; memory never reaches knowledge", async () => {
    const base = { orgId, databaseId, corpus: "knowledge" as const, collection: "ctx", principals: null };
    const one = await t.app.graphContext.relatedItems({ ...base, sourceIds: ["ticket"], maxHops: 1 });
    assert.deepEqual(
      one.map((r) => [r.source_id, r.depth, r.relation, r.via]),
      [[`slack:message:${SLACK_ROOT}`, 1, "references", "ticket"]],
    );
    const two = await t.app.graphContext.relatedItems({ ...base, sourceIds: ["ticket"] });
    assert.deepEqual(
      two.map((r) => r.source_id).sort(),
      [`slack:message:${SLACK_ROOT}`, "slack:message:1700000060.000200", "slack:message:1700000120.000300"].sort(),
    );
    assert.equal((await t.app.graphContext.relatedItems({ ...base, sourceIds: ["ticket"], limit: 1 })).length, 1);
    assert.deepEqual(await t.app.graphContext.relatedItems({ ...base, corpus: "memory", sourceIds: ["ticket"] }), []);
  });
});
