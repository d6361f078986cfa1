import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  COOCCURRENCE_CONFIDENCE,
  createEntityResolver,
  extractEntities,
  extractRelations,
  type PersonIdentity,
  type RelationTriplet,
} from "../../src/engines/extraction/index.js";

interface Flat {
  readonly from: string;
  readonly predicate: string;
  readonly to: string;
}

function run(text: string, reference?: string, speaker?: PersonIdentity): RelationTriplet[] {
  const resolver = createEntityResolver({ database: "db", collection: "c" });
  return extractRelations(text, extractEntities(text, { reference }), { chunkId: "chunk-1", timestamp: "2024-03-05T12:00:00.000Z", resolver, speaker });
}

function flat(triplets: readonly RelationTriplet[]): Flat[] {
  return triplets.flatMap((t) => t.relations.map((r) => ({ from: t.source.name, predicate: r.canonical_predicate, to: t.target.name })));
}

function has(triplets: readonly RelationTriplet[], from: string, predicate: string, to: string): boolean {
  return flat(triplets).some((r) => r.from === from && r.predicate === predicate && r.to === to);
}

void describe("extractRelations", () => {
  void it("reads works_at and a coordinated lives_in from one sentence", () => {
    const triplets = run("John Smith works at Microsoft and lives in Seattle.");
    assert.ok(has(triplets, "John Smith", "works_at", "Microsoft"));
    assert.ok(has(triplets, "John Smith", "lives_in", "Seattle"));
    const worksAt = triplets.flatMap((t) => t.relations).find((r) => r.canonical_predicate === "works_at");
    assert.equal(worksAt?.raw_predicate, "works at");
    assert.equal(worksAt?.context, "John Smith works at Microsoft and lives in Seattle.");
    assert.equal(worksAt?.chunk_id, "chunk-1");
    assert.equal(worksAt?.timestamp, "2024-03-05T12:00:00.000Z");
    assert.ok((worksAt?.confidence ?? 0) > 0.7);
  });

  void it("carries the sentence's date expression, resolved, as temporal details", () => {
    const triplets = run("Caroline is going to Paris next month.", "8 May 2023");
    const relation = triplets.flatMap((t) => t.relations).find((r) => r.canonical_predicate === "travels_to");
    assert.equal(relation?.raw_predicate, "is going to");
    assert.equal(relation?.temporal_details, "next month (2023-06)");
  });

  void it("resolves first-person speakers in conversation turns", () => {
    const triplets = run("I moved to Berlin in March and I love Berlin.", "8 May 2023", { name: "Sam" });
    assert.ok(has(triplets, "Sam", "lives_in", "Berlin"));
    assert.ok(has(triplets, "Sam", "likes", "Berlin"));
  });

  void it("handles passive and inverse phrasings of assigned_to and created", () => {
    const triplets = run("ENG-123 was assigned to Alice Walker. Bob Jones is working on ENG-77. ENG-200 was filed by Carol Diaz.");
    assert.ok(has(triplets, "ENG-123", "assigned_to", "Alice Walker"));
    assert.ok(has(triplets, "ENG-77", "assigned_to", "Bob Jones"));
    assert.ok(has(triplets, "Carol Diaz", "created", "ENG-200"));
  });

  void it("reads met_with, works_with, reports_to and mentions between people", () => {
    const triplets = run("Alice Walker met with Bob Jones. Carol Diaz works with Dan Brown. Erin Lee reports to Frank Moore. Gina Ray mentioned Hank Hill.");
    assert.ok(has(triplets, "Alice Walker", "met_with", "Bob Jones"));
    assert.ok(has(triplets, "Carol Diaz", "works_with", "Dan Brown"));
    assert.ok(has(triplets, "Erin Lee", "reports_to", "Frank Moore"));
    assert.ok(has(triplets, "Gina Ray", "mentions", "Hank Hill"));
  });

  void it("reads likes, dislikes (including negated likes), owns and uses with products", () => {
    const triplets = run("Ada Lovelace loves Python 3.12. Alan Turing doesn't like Java 8. Grace Hopper bought an iPhone 15. Acme migrated to Postgres 16.");
    assert.ok(has(triplets, "Ada Lovelace", "likes", "Python 3.12"));
    assert.ok(has(triplets, "Alan Turing", "dislikes", "Java 8"));
    assert.ok(has(triplets, "Grace Hopper", "owns", "iPhone 15"));
    const uses = run("Microsoft uses Kubernetes 1.29 heavily.");
    assert.ok(has(uses, "Microsoft", "uses", "Kubernetes 1.29"));
  });

  void it("reads located_in, part_of and created for organisations and places", () => {
    const triplets = run("Microsoft is headquartered in Seattle. Acme Corp is part of Google. Linus Torvalds created Linux 1.0.");
    assert.ok(has(triplets, "Microsoft", "located_in", "Seattle"));
    assert.ok(has(triplets, "Acme Corp", "part_of", "Google"));
    assert.ok(has(triplets, "Linus Torvalds", "created", "Linux 1.0"));
  });

  void it("falls back to related_to for co-occurring entities with low confidence", () => {
    const triplets = run("Hey @ada, can you check bob@example.com about #billing?");
    const relations = triplets.flatMap((t) => t.relations);
    assert.ok(relations.length >= 2);
    for (const relation of relations) {
      assert.equal(relation.canonical_predicate, "related_to");
      assert.equal(relation.confidence, COOCCURRENCE_CONFIDENCE);
    }
  });

  void it("does not relate entities across sentences", () => {
    assert.deepEqual(run("Alice Walker is here. Bob Jones is there."), []);
  });

  void it("is deterministic: the same chunk gives the same relationship ids", () => {
    const text = "Alice Walker met with Bob Jones in Lisbon yesterday.";
    const first = run(text, "2024-03-05").flatMap((t) => t.relations.map((r) => r.relationship_id));
    const second = run(text, "2024-03-05").flatMap((t) => t.relations.map((r) => r.relationship_id));
    assert.ok(first.length > 0);
    assert.deepEqual(first, second);
    assert.equal(new Set(first).size, first.length);
  });

  void it("accepts bare mentions and splits sentences itself", () => {
    const text = "Alice Walker met with Bob Jones. Carol Diaz is elsewhere.";
    const resolver = createEntityResolver({ database: "db", collection: "c" });
    const triplets = extractRelations(text, extractEntities(text).mentions, { chunkId: "c", timestamp: "2024-01-01T00:00:00Z", resolver });
    assert.deepEqual(flat(triplets), [{ from: "Alice Walker", predicate: "met_with", to: "Bob Jones" }]);
  });
});
