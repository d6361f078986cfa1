import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { InMemoryAliasTable, createEntityResolver, entityIdFor, extractEntities, type GraphEntity } from "../../src/engines/extraction/index.js";

const scope = { database: "acme", collection: "support" };

function id(entity: GraphEntity | undefined): string {
  assert.ok(entity !== undefined);
  return entity.entity_id;
}

void describe("EntityResolver", () => {
  void it("gives the same entity to the same email whatever its case", () => {
    const resolver = createEntityResolver(scope);
    assert.equal(id(resolver.resolvePerson({ email: "Ada@X.com" })), id(resolver.resolvePerson({ email: " ada@x.com " })));
  });

  void it("links name, email and handle when an item pairs them", () => {
    const resolver = createEntityResolver(scope);
    const sender = resolver.resolvePerson({ name: "Ada Lovelace", email: "ada@x.com", handle: "ada" });
    assert.equal(id(resolver.resolvePerson({ handle: "@ada" })), id(sender));
    assert.equal(id(resolver.resolvePerson({ name: "ada  LOVELACE" })), id(sender));
    assert.equal(sender?.type, "ACTOR");
    assert.equal(sender?.namespace, "actors");
    assert.equal(sender?.identifier, "ada@x.com");
    assert.equal(sender?.name, "Ada Lovelace");
  });

  void it("collapses case, spacing, diacritics and possessive variants of a name", () => {
    const resolver = createEntityResolver(scope);
    const ids = ["José Núñez", "jose nunez", "José  Núñez's", "Jose Nunez’s"].map((name) => id(resolver.resolvePerson({ name })));
    assert.equal(new Set(ids).size, 1);
  });

  void it("resolves a first name to the unique full name in scope, and not when ambiguous", () => {
    const resolver = createEntityResolver(scope);
    const ada = resolver.resolvePerson({ name: "Ada Lovelace", email: "ada@x.com" });
    assert.equal(id(resolver.resolvePerson({ name: "Ada" })), id(ada));
    resolver.resolvePerson({ name: "Ada Byron", email: "byron@x.com" });
    const ambiguous = resolver.resolvePerson({ name: "Ada" });
    assert.notEqual(id(ambiguous), id(ada));
    assert.equal(ambiguous?.name, "Ada");
  });

  void it("never merges two people with different emails through a shared name", () => {
    const resolver = createEntityResolver(scope);
    const first = resolver.resolvePerson({ name: "John Smith", email: "john@a.com" });
    const second = resolver.resolvePerson({ name: "John Smith", email: "john@b.com" });
    assert.notEqual(id(first), id(second));
    assert.equal(id(resolver.resolvePerson({ name: "John Smith" })), id(first));
  });

  void it("derives ids from scope and strongest key, independent of ingestion order", () => {
    const forward = createEntityResolver(scope);
    forward.resolvePerson({ name: "Grace Hopper" });
    const linked = forward.resolvePerson({ name: "Grace Hopper", email: "grace@navy.mil" });
    const backward = createEntityResolver(scope);
    const direct = backward.resolvePerson({ email: "grace@navy.mil", name: "Grace Hopper" });
    assert.equal(id(linked), id(direct));
    assert.equal(id(direct), entityIdFor(scope, "email:grace@navy.mil"));
    assert.notEqual(id(createEntityResolver({ database: "acme", collection: "sales" }).resolvePerson({ email: "grace@navy.mil" })), id(direct));
  });

  void it("reports the old id when a stronger key changes a person's id", () => {
    const resolver = createEntityResolver(scope);
    const before = resolver.resolvePerson({ name: "Grace Hopper" });
    const after = resolver.resolvePerson({ name: "Grace Hopper", handle: "grace" });
    assert.deepEqual(resolver.takeMerges(), [{ from: id(before), into: id(after) }]);
    assert.deepEqual(resolver.takeMerges(), []);
  });

  void it("merges a handle-only and an email-only person when an item pairs them", () => {
    const resolver = createEntityResolver(scope);
    const byHandle = resolver.resolvePerson({ handle: "linus" });
    const byEmail = resolver.resolvePerson({ email: "linus@kernel.org" });
    const both = resolver.resolvePerson({ handle: "linus", email: "linus@kernel.org", name: "Linus Torvalds" });
    assert.equal(id(both), id(byEmail));
    assert.deepEqual(resolver.takeMerges(), [{ from: id(byHandle), into: id(byEmail) }]);
    assert.equal(id(resolver.resolvePerson({ handle: "linus" })), id(byEmail));
  });

  void it("keeps state in a pluggable alias table shared between resolvers", () => {
    const table = new InMemoryAliasTable();
    createEntityResolver(scope, table).resolvePerson({ name: "Ada Lovelace", email: "ada@x.com", handle: "ada" });
    const later = createEntityResolver(scope, table);
    assert.equal(id(later.resolvePerson({ handle: "ada" })), entityIdFor(scope, "email:ada@x.com"));
  });

  void it("resolves text mentions of every relatable kind and skips attributes", () => {
    const resolver = createEntityResolver(scope);
    const text = "Ada Lovelace from Google met @bob in London about #billing, ENG-9 and https://x.com/a on 2024-01-02 for $5.";
    const entities = extractEntities(text).mentions.map((mention) => [mention.kind, resolver.resolveMention(mention)?.type ?? null]);
    assert.deepEqual(entities, [
      ["person", "ACTOR"],
      ["organization", "ORGANIZATION"],
      ["mention", "ACTOR"],
      ["place", "PLACE"],
      ["hashtag", "TOPIC"],
      ["ticket", "REFERENCE"],
      ["url", "REFERENCE"],
      ["date", null],
      ["money", null],
    ]);
  });
});
