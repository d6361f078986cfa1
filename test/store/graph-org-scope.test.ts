import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { entitiesMentionedIn, namedEntities, readTriplets } from "../../src/features/context-graph/graph-read-store.js";
import { linksAmong, itemsBySource, type TraversalScope } from "../../src/features/context-graph/traversal-store.js";
import { resolveDatabase } from "../../src/features/databases/tenancy.js";
import { readGraphRows } from "../../src/features/graph-collections/graph-row-store.js";
import { GraphCollectionStore } from "../../src/features/graph-collections/store.js";
import type { DatabaseTenancy } from "../../src/platform/tenancy.js";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { graphClient } from "../graph-collections/graph-client.js";
import { linearProject, linearTicket } from "../context-graph/graph-fixtures.js";

/**
 * The stores of the context graph and the graph area scope every query by the organization as
 * well as by the database. Through HTTP another organization cannot even name the database (404
 * at the edge), so this asks the stores directly: given the right database id but another
 * organization's id, each read finds nothing.
 */
describe("graph stores answer only for the organization named", () => {
  let t: TestApp;
  let own: DatabaseTenancy;
  let stranger: DatabaseTenancy;
  const scopeOf = (at: DatabaseTenancy): TraversalScope => ({ ...at, backend: t.app.store.backend, corpus: "knowledge", principals: null, now: Date.now() });

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "scoped");
    await ingestApp(t, "scoped", [
      linearProject,
      linearTicket("ENG-1", "Billing migration"),
      linearTicket("ENG-2", "Invoice export"),
      { id: "note-1", type: "note", title: "Note", content: { text: "Grace Hopper works at IBM and lives in Boston." } },
    ]);
    const resolved = await resolveDatabase(t.app.databases, { orgId: t.orgId }, "scoped");
    own = { orgId: resolved.orgId, databaseId: resolved.databaseId, collection: resolved.collection };
    stranger = { ...own, orgId: (await t.newOrgKey()).orgId };
    const rows = await graphClient(t, "scoped").rows("people", "CREATE (:Person {name: 'Ada'})-[:KNOWS]->(:Person {name: 'Bob'}) RETURN 1 AS ok");
    assert.equal(rows.length, 1);
  });
  after(async () => t.close());

  test("context graph: triplets, entities, mentions, items and links", async () => {
    const db = t.app.store.db;
    const triplets = await readTriplets(db, scopeOf(own), {}, 0, 1000);
    assert.ok(triplets.length > 0, "the organization reads its own triplets");
    assert.deepEqual(await readTriplets(db, scopeOf(stranger), {}, 0, 1000), []);

    const chunkId = (await readTriplets(db, scopeOf(own), { kind: "chunk" }, 0, 1))[0]?.chunk_id;
    assert.ok(chunkId !== undefined, "a triplet read from a chunk");
    assert.ok((await entitiesMentionedIn(db, scopeOf(own), chunkId)).length > 0);
    assert.deepEqual(await entitiesMentionedIn(db, scopeOf(stranger), chunkId), []);

    const entityIds = [...new Set(triplets.flatMap((tr) => [tr.source.entity_id, tr.target.entity_id]))];
    assert.ok((await namedEntities(db, scopeOf(own), [], entityIds)).length > 0);
    assert.deepEqual(await namedEntities(db, scopeOf(stranger), [], entityIds), []);

    const subgraph = await t.request("GET", `/context/${linearProject.id}/subgraph`, { query: { database: "scoped" } });
    const sourceIds = field<Array<{ source_id: string }>>(subgraph.body, "data.sources").map((m) => m.source_id);
    const items = await itemsBySource(db, scopeOf(own), sourceIds);
    assert.ok(items.length >= 3, "the organization sees its project and both tickets");
    assert.deepEqual(await itemsBySource(db, scopeOf(stranger), sourceIds), []);
    assert.ok((await linksAmong(db, scopeOf(own), items)).length >= 2, "the tickets' links to their project");
    // Even handed the organization's item rows, a read for another organization finds none of their links.
    assert.deepEqual(await linksAmong(db, scopeOf(stranger), items), []);
  });

  test("graph area: collection heads, listings and stored rows", async () => {
    const collections = new GraphCollectionStore(t.app.store.backend);
    const db = t.app.store.db;
    const head = await collections.head(db, { ...own, collection: "people" });
    assert.ok(head !== null, "the organization's collection exists");
    assert.equal(await collections.head(db, { ...stranger, collection: "people" }), null);
    assert.deepEqual(await collections.list(db, own), ["people"]);
    assert.deepEqual(await collections.list(db, stranger), []);

    const counted = async (at: DatabaseTenancy): Promise<number> => {
      let n = 0;
      await readGraphRows(
        db,
        { orgId: at.orgId, databaseId: at.databaseId, collectionId: head.id },
        {
          nodes: async (rows) => void (n += rows.length),
          relationships: async (rows) => void (n += rows.length),
          indexes: async () => undefined,
        },
      );
      return n;
    };
    assert.equal(await counted(own), 3, "two nodes and one relationship");
    assert.equal(await counted(stranger), 0);
  });
});
