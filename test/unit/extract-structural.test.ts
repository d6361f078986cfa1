import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createEntityResolver, extractStructuralRelations, type AppItem, type RelationTriplet } from "../../src/engines/extraction/index.js";

const scope = { database: "acme", collection: "apps" };

function edges(triplets: readonly RelationTriplet[]): string[] {
  return triplets.flatMap((t) => t.relations.map((r) => `${t.source.name} -${r.canonical_predicate}-> ${t.target.name}`));
}

void describe("extractStructuralRelations", () => {
  void it("links sender, recipients, cc and attachments of an email", () => {
    const email: AppItem = {
      id: "gmail:18c2",
      kind: "email",
      provider: "gmail",
      title: "Q3 invoice",
      timestamp: "2024-03-01T09:30:00.000Z",
      sender: { name: "Ada Lovelace", email: "Ada@Example.com" },
      recipients: ["bob@example.com", { name: "Carol Diaz", email: "carol@example.com" }],
      cc: ["dan@example.com"],
      attachments: [{ name: "invoice-q3.pdf" }],
    };
    const triplets = extractStructuralRelations(email, { resolver: createEntityResolver(scope), timestamp: "2000-01-01T00:00:00.000Z" });
    assert.deepEqual(edges(triplets), [
      "Ada Lovelace -sent-> Q3 invoice",
      "Q3 invoice -sent_to-> bob@example.com",
      "Q3 invoice -sent_to-> Carol Diaz",
      "Q3 invoice -cc-> dan@example.com",
      "Q3 invoice -has_attachment-> invoice-q3.pdf",
    ]);
    for (const triplet of triplets) {
      for (const relation of triplet.relations) {
        assert.equal(relation.confidence, 1);
        assert.equal(relation.context, "");
        assert.equal(relation.temporal_details, null);
        assert.equal(relation.timestamp, "2024-03-01T09:30:00.000Z");
      }
    }
    const sent = triplets[0];
    assert.equal(sent?.source.type, "ACTOR");
    assert.equal(sent?.source.identifier, "ada@example.com");
    assert.equal(sent?.target.type, "SOURCE");
    assert.equal(sent?.target.namespace, "sources");
    assert.equal(sent?.target.entity_id, "gmail:18c2");
    assert.equal(sent?.target.provider, "gmail");
  });

  void it("links author, assignee, comments, commenters and @mentions of a GitHub issue", () => {
    const issue: AppItem = {
      id: "acme/api#42",
      kind: "ticket",
      provider: "github",
      title: "Crash on empty payload",
      author: "@octocat",
      assignee: { handle: "hubot", name: "Hu Bot" },
      mentions: ["@monalisa"],
      comments: [{ id: "acme/api#42/c1", author: "@hubot", body: "Repro'd. @octocat can you share logs? cc @monalisa", timestamp: "2024-03-02T10:00:00.000Z" }],
    };
    const triplets = extractStructuralRelations(issue, { resolver: createEntityResolver(scope), timestamp: "2024-03-01T00:00:00.000Z" });
    assert.deepEqual(edges(triplets), [
      "Crash on empty payload -assigned_to-> Hu Bot",
      "@octocat -authored-> Crash on empty payload",
      "Crash on empty payload -mentions-> @monalisa",
      "Comment on Crash on empty payload -commented_on-> Crash on empty payload",
      "Hu Bot -authored-> Comment on Crash on empty payload",
      "Comment on Crash on empty payload -mentions-> @octocat",
      "Comment on Crash on empty payload -mentions-> @monalisa",
    ]);
    const commentEdge = triplets.find((t) => t.relations[0]?.canonical_predicate === "commented_on");
    assert.equal(commentEdge?.relations[0]?.timestamp, "2024-03-02T10:00:00.000Z");
  });

  void it("links a Slack reply to its thread and parent and its participants", () => {
    const reply: AppItem = {
      id: "slack:C01/1700000001.000200",
      kind: "message",
      provider: "slack",
      title: "Re: deploy",
      sender: { name: "Ada Lovelace", handle: "ada" },
      participants: ["@ada", "@bob"],
      thread_id: "slack:C01/1700000000.000100",
      parent_id: "slack:C01/1700000000.000100",
    };
    const triplets = extractStructuralRelations(reply, { resolver: createEntityResolver(scope), timestamp: "2024-03-01T00:00:00.000Z" });
    assert.deepEqual(edges(triplets), [
      "Ada Lovelace -sent-> Re: deploy",
      "Ada Lovelace -participated_in-> Re: deploy",
      "@bob -participated_in-> Re: deploy",
      "Re: deploy -part_of-> slack:C01/1700000000.000100",
      "slack:C01/1700000000.000100 -parent_of-> Re: deploy",
    ]);
    // The sender's handle and the participant "@ada" are one person, so both edges share a triplet.
    assert.deepEqual(
      triplets[0]?.relations.map((r) => r.canonical_predicate),
      ["sent", "participated_in"],
    );
    assert.equal(triplets[0]?.source.identifier, "@ada");
  });

  void it("links the author of a Notion page and assignee of a Linear ticket by name and email", () => {
    const resolver = createEntityResolver(scope);
    const page: AppItem = {
      id: "notion:abc",
      kind: "knowledge_base",
      provider: "notion",
      title: "Onboarding",
      author: { name: "Grace Hopper", email: "grace@acme.io" },
    };
    const ticket: AppItem = { id: "linear:ENG-7", kind: "ticket", provider: "linear", title: "Fix SSO", external_id: "ENG-7", assignee: "grace@acme.io" };
    const authored = extractStructuralRelations(page, { resolver, timestamp: "2024-03-01T00:00:00.000Z" });
    const assigned = extractStructuralRelations(ticket, { resolver, timestamp: "2024-03-01T00:00:00.000Z" });
    assert.equal(authored[0]?.source.entity_id, assigned[0]?.target.entity_id);
    assert.equal(assigned[0]?.source.identifier, "ENG-7");
    assert.equal(assigned[0]?.relations[0]?.raw_predicate, "assignee");
  });

  void it("gives the same ids when an item is ingested again", () => {
    const item: AppItem = { id: "m1", kind: "message", provider: "slack", title: "hi", sender: "@ada", mentions: ["@bob"], attachments: [{ name: "a.png" }] };
    const once = extractStructuralRelations(item, { resolver: createEntityResolver(scope), timestamp: "2024-03-01T00:00:00.000Z" });
    const again = extractStructuralRelations(item, { resolver: createEntityResolver(scope), timestamp: "2024-03-01T00:00:00.000Z" });
    assert.deepEqual(again, once);
    assert.ok(once.length === 3);
  });
});
