import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createEntityResolver, extractEntities, extractRelations, inferMemory } from "../../src/engines/extraction/index.js";

// Turns from LoCoMo (conversation 1, speakers Caroline and Melanie), with their session dates.

void describe("LoCoMo-style conversation turns", () => {
  const speakers = ["Caroline", "Melanie", "Mel"];

  void it("resolves 'Last Friday' and 'two days ago' against the session date", () => {
    const turn = "Last Friday, I went to an LGBTQ+ counseling workshop and it was really enlightening. I went to an LGBTQ conference two days ago.";
    const { mentions } = extractEntities(turn, { reference: "10:37 am on 27 June, 2023", knownPeople: speakers });
    assert.deepEqual(
      mentions.filter((m) => m.kind === "date").map((m) => m.resolved),
      ["2023-06-23", "2023-06-25"],
    );
  });

  void it("links the speaker's home country through a first-person turn", () => {
    const turn = "Thanks, Melanie! This necklace is a gift from my grandma in my home country, Sweden. I moved from Sweden 4 years ago.";
    const resolver = createEntityResolver({ database: "locomo", collection: "conv-26" });
    const entities = extractEntities(turn, { reference: "10:37 am on 27 June, 2023", knownPeople: speakers });
    assert.ok(entities.mentions.some((m) => m.kind === "person" && m.key === "melanie"));
    const triplets = extractRelations(turn, entities, { chunkId: "D4:3", timestamp: "2023-06-27T10:37:00.000Z", resolver, speaker: { name: "Caroline" } });
    const caroline = resolver.resolvePerson({ name: "Caroline" });
    const fromSweden = triplets.find((t) => t.source.entity_id === caroline?.entity_id && t.target.name === "Sweden");
    assert.ok(fromSweden !== undefined);
    assert.equal(fromSweden.relations[0]?.temporal_details, "4 years ago (2019)");
  });

  void it("resolves the nickname only as a separate person, and the full name consistently", () => {
    const resolver = createEntityResolver({ database: "locomo", collection: "conv-26" });
    const full = resolver.resolvePerson({ name: "Melanie" });
    assert.equal(resolver.resolvePerson({ name: "melanie's" })?.entity_id, full?.entity_id);
    assert.notEqual(resolver.resolvePerson({ name: "Mel" })?.entity_id, full?.entity_id);
  });

  void it("infers memories from a speaker's turn", () => {
    const turn = "Since we last spoke, some big things have happened. Last week I went to an LGBTQ+ pride parade. Everyone was so happy!";
    assert.equal(inferMemory(turn, { userName: "Caroline" })?.statement, "Caroline went to an LGBTQ+ pride parade");
  });
});
