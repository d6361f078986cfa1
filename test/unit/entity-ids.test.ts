import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEntityResolver, extractEntities, normalizeName, relationshipIdFor, type GraphEntity } from "../../src/engines/extraction/index.js";
import { EntityIdMap } from "../../src/features/portability/entity-ids.js";

const TEXT =
  "Ada Lovelace (ada@example.com, @ada) met Charles Babbage of Acme Corp in London about ticket ENG-142 " +
  "and the Analytical Engine; see https://example.com/Notes?x=1 and #history.";
const [OLD, NEW] = ["01a24340-8c98-7164-8b8f-ada451e66432", "01a24341-0000-7000-8000-000000000001"];

/** The entities a database's graph stores for the text (graph-write-store.ts entityRow), and the ids a new database gives them. */
function entities(database: string): GraphEntity[] {
  const resolver = createEntityResolver({ database, collection: "knowledge/default" });
  const found: GraphEntity[] = [];
  for (const mention of extractEntities(TEXT).mentions) {
    const entity = resolver.resolveMention(mention);
    if (entity !== undefined) found.push(entity);
  }
  return found;
}

void describe("entity ids of an imported database", () => {
  void it("are derived for the new database from each stored entity's name or identifier", () => {
    const before = entities(OLD);
    const after = entities(NEW);
    assert.ok(new Set(before.map((e) => e.type)).size >= 5, `kinds found: ${[...new Set(before.map((e) => e.type))].join(", ")}`);
    const map = new EntityIdMap(OLD, NEW);
    for (const e of before)
      map.learnEntity({ corpus: "knowledge", collection: "default", entity_id: e.entity_id, name_key: normalizeName(e.name), identifier: e.identifier });
    assert.deepEqual(
      before.map((e) => `${e.name}: ${map.map(e.entity_id)}`),
      after.map((e) => `${e.name}: ${e.entity_id}`),
    );
  });

  void it("keeps an id no candidate key gives (an item's own entity is its public id)", () => {
    const map = new EntityIdMap(OLD, NEW);
    map.learnEntity({ corpus: "knowledge", collection: "default", entity_id: "t-root", name_key: "t root", identifier: null });
    assert.equal(map.map("t-root"), "t-root");
    assert.equal(map.size, 0);
  });

  void it("derives a relation's relationship id from its new chunk and entity ids", () => {
    const [ada, acme] = entities(OLD);
    assert.ok(ada && acme);
    const map = new EntityIdMap(OLD, NEW);
    for (const e of [ada, acme])
      map.learnEntity({ corpus: "knowledge", collection: "default", entity_id: e.entity_id, name_key: normalizeName(e.name), identifier: e.identifier });
    const relation = {
      canonical_predicate: "WORKS_AT",
      raw_predicate: "works at",
      chunk_id: "c-old",
      source_entity_id: ada.entity_id,
      target_entity_id: acme.entity_id,
      relationship_id: relationshipIdFor("c-old", ada.entity_id, "WORKS_AT", acme.entity_id),
    };
    const moved = map.relation(relation, () => "c-new");
    assert.equal(moved.relationship_id, relationshipIdFor("c-new", map.map(ada.entity_id), "WORKS_AT", map.map(acme.entity_id)));
    assert.notEqual(map.map(ada.entity_id), ada.entity_id);
  });
});
