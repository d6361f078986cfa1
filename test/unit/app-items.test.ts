import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderAppItem, validateAppItem, validateAppItems } from "../../src/engines/documents/app-items/index.js";
import type { NormalizedAppItem } from "../../src/engines/documents/app-items/index.js";
import { chunkDocument } from "../../src/engines/documents/chunk/index.js";

function valid(value: unknown): NormalizedAppItem {
  const result = validateAppItem(value);
  if (!result.ok) assert.fail(result.message);
  return result.item;
}

const email = {
  kind: "email",
  provider: "gmail",
  external_id: "msg-17",
  fields: {
    from: "Ada Lovelace <Ada@Example.com>",
    to: 'bob@example.com, "Carol, C." <carol@example.com>',
    cc: ["dan@example.com"],
    subject: "Engine design review",
    body: "Hi Bob,\n\nPlease review the engine notes before Friday. cc @eve",
    thread_id: "thr-9",
    date: "Tue, 14 Nov 2023 10:00:00 +0000",
  },
  attachments: [{ name: "notes.txt", text: "Bernoulli numbers table", mime_type: "text/plain" }],
  comments: [{ id: "c1", author: { name: "Bob", email: "bob@example.com" }, body: "Looks good to me.", created_at: 1700000000 }],
  relations: [
    { predicate: "replies_to", target: { provider: "gmail", external_id: "msg-16", kind: "email" } },
    { predicate: "references", target: { id: "docs/engine.md" } },
  ],
};

describe("validateAppItem: rich shape", () => {
  it("normalizes an email with a stable id, participants, thread and timestamps", () => {
    const item = valid(email);
    assert.equal(item.id, "gmail:email:msg-17");
    assert.equal(item.shape, "rich");
    assert.equal(item.title, "Engine design review");
    assert.equal(item.threadId, "thr-9");
    assert.equal(item.createdAt, "2023-11-14T10:00:00.000Z");
    assert.equal(item.timestamp, "2023-11-14T10:00:00.000Z");
    const roles = item.participants.map((p) => `${p.role}:${p.email ?? p.handle ?? p.display}`);
    assert.deepEqual(roles, [
      "sender:ada@example.com",
      "recipient:bob@example.com",
      "recipient:carol@example.com",
      "cc:dan@example.com",
      "mention:eve",
      "commenter:bob@example.com",
    ]);
    assert.equal(item.participants[0]?.name, "Ada Lovelace");
    assert.equal(item.participants[2]?.name, "Carol, C.");
    assert.deepEqual(item.relations, [
      { predicate: "replies_to", target: { type: "external", provider: "gmail", externalId: "msg-16", kind: "email", id: "gmail:email:msg-16" } },
      { predicate: "references", target: { type: "id", id: "docs/engine.md" } },
    ]);
    assert.equal(item.comments[0]?.createdAt, "2023-11-14T22:13:20.000Z");
  });

  it("reads Slack messages, tickets and knowledge-base parents", () => {
    const message = valid({
      kind: "message",
      provider: "slack",
      external_id: "C1-1700000001.000200",
      fields: { channel: "eng", user: "U0123ABCD", text: "Deploy done <@U999XYZ12|bob>", thread_ts: "1700000000.000100", ts: "1700000001.000200" },
    });
    assert.equal(message.threadId, "1700000000.000100");
    assert.deepEqual(
      message.participants.map((p) => [p.role, p.id]),
      [
        ["sender", "U0123ABCD"],
        ["mention", "U999XYZ12"],
      ],
    );
    assert.equal(message.createdAt, "2023-11-14T22:13:21.000Z");
    assert.equal(message.title, "Deploy done <@U999XYZ12|bob>");

    const ticket = valid({
      kind: "ticket",
      provider: "linear",
      external_id: "ENG-42",
      title: "Fix login",
      fields: { status: "In Progress", assignee: { name: "Eve", email: "eve@example.com" }, labels: ["bug", "auth"], project: "Web" },
    });
    assert.equal(ticket.title, "Fix login");
    assert.deepEqual(
      ticket.participants.map((p) => [p.role, p.email]),
      [["assignee", "eve@example.com"]],
    );

    const page = valid({
      kind: "knowledge_base",
      provider: "notion",
      external_id: "p2",
      fields: { body: "# Setup\nSteps", parent: { external_id: "p1", kind: "knowledge_base" } },
    });
    assert.equal(page.parentId, "notion:knowledge_base:p1");
  });

  it("rejects malformed rich items one by one with INVALID_INPUT", () => {
    const results = validateAppItems([
      email,
      { kind: "fax", external_id: "1", fields: { body: "x" } },
      { kind: "email", fields: { body: "x" } },
      { kind: "ticket", external_id: "T1", fields: {} },
      { kind: "message", external_id: "m", fields: { text: "hi" }, relations: [{ predicate: "about", target: { provider: "slack" } }] },
      { kind: "message", external_id: "m", fields: { text: "hi" }, timestamp: "not a date" },
      "just a string",
    ]);
    assert.equal(results[0]?.ok, true);
    const failures = results.slice(1).map((r) => (r.ok ? "ok" : `${r.code} ${r.message}`));
    assert.deepEqual(failures, [
      "INVALID_INPUT app_knowledge[1].kind must be one of email, message, ticket, knowledge_base, comment, custom",
      "INVALID_INPUT app_knowledge[2].external_id is required and must be a non-empty string",
      "INVALID_INPUT app_knowledge[3] has no text: set title or fields.body",
      "INVALID_INPUT app_knowledge[4].relations[0].target needs either id or both provider and external_id",
      "INVALID_INPUT app_knowledge[5].timestamp is not a valid date",
      "INVALID_INPUT app_knowledge[6] must be an object",
    ]);
  });
});

describe("validateAppItem: simple shape", () => {
  it("requires id, type and content.text and keeps optional fields", () => {
    const item = valid({
      id: "acme/repo/README.md",
      type: "file",
      content: { text: "Project readme\n\nMore text." },
      updated_at: "2024-01-02T03:04:05Z",
      collection: "team-a",
      metadata: '{"lang":"en"}',
      additional_metadata: { stars: 5 },
      relations: { ids: ["acme/repo/LICENSE"] },
      acl: ["group:eng"],
    });
    assert.equal(item.shape, "simple");
    assert.equal(item.kind, "custom");
    assert.equal(item.title, "Project readme");
    assert.equal(item.timestamp, "2024-01-02T03:04:05.000Z");
    assert.deepEqual(item.metadata, { lang: "en" });
    assert.deepEqual(item.relations, [{ predicate: "related_to", target: { type: "id", id: "acme/repo/LICENSE" } }]);
    assert.deepEqual(item.acl, ["group:eng"]);

    const missing = validateAppItems([
      { id: "a", type: "t" },
      { id: "c", type: "t", content: { text: "x" }, metadata: [1] },
      { id: "d", source_id: "e", content: { text: "x" } },
    ]);
    assert.deepEqual(
      missing.map((r) => (r.ok ? "ok" : r.message)),
      [
        "app_knowledge[0].content is required and must be an object with text",
        "app_knowledge[1].metadata must be an object",
        "app_knowledge[2] has 'id' and 'source_id' with different values; send one of them",
      ],
    );
  });

  it("takes an item without type as a document, source_id as its id, and mints an id for a blank one (the vendor CLI's shapes)", () => {
    const typeless = valid({ id: "cli-note", content: { text: "Typeless text" }, title: "A note" });
    assert.deepEqual([typeless.id, typeless.type, typeless.kind, typeless.title], ["cli-note", "document", "custom", "A note"]);
    assert.equal(valid({ source_id: "by-source-id", content: { text: "x" } }).id, "by-source-id");
    assert.equal(valid({ id: "same", source_id: "same", content: { text: "x" } }).id, "same");
    const minted = valid({ id: "", content: { text: "x" } }).id;
    assert.match(minted, /^[0-9a-f-]{36}$/);
    assert.notEqual(valid({ id: "", content: { text: "x" } }).id, minted);
  });
});

describe("renderAppItem", () => {
  it("renders fields and body as one unit and each comment and attachment separately", () => {
    const doc = renderAppItem(valid(email));
    assert.equal(doc.title, "Engine design review");
    const chunks = chunkDocument(doc);
    assert.deepEqual(
      chunks.map((c) => c.unit),
      ["item", "comment:c1", "attachment:0"],
    );
    const main = chunks[0]?.text ?? "";
    assert.match(
      main,
      /^From: Ada Lovelace <Ada@Example.com>\n\nTo: bob@example.com, "Carol, C." <carol@example.com>\n\nCc: dan@example.com\n\nSubject: Engine design review/,
    );
    assert.match(main, /Please review the engine notes before Friday/);
    assert.doesNotMatch(main, /thr-9/);
    assert.equal(chunks[1]?.text, "Comment 1 by Bob <bob@example.com> (2023-11-14T22:13:20.000Z):\nLooks good to me.");
    assert.equal(chunks[2]?.text, "Attachment: notes.txt\nBernoulli numbers table");
    const comment = doc.blocks.find((b) => b.kind === "comment");
    assert.ok(comment?.kind === "comment");
    assert.equal(comment.author, "Bob");
  });

  it("renders ticket fields and Markdown sections of knowledge-base pages", () => {
    const ticket = renderAppItem(
      valid({
        kind: "ticket",
        provider: "github",
        external_id: "7",
        title: "Crash on save",
        fields: { status: "open", labels: ["bug", "p1"], body: "Steps to reproduce", milestone: "v2" },
      }),
    );
    assert.deepEqual(
      ticket.blocks.map((b) => b.text),
      ["Title: Crash on save", "Status: open", "Labels: bug, p1", "Milestone: v2", "Steps to reproduce"],
    );
    const page = renderAppItem(
      valid({
        kind: "knowledge_base",
        provider: "notion",
        external_id: "p",
        title: "Handbook",
        fields: { body: "# Onboarding\nWelcome aboard.\n\n# Benefits\nHealth plan." },
      }),
    );
    const chunks = chunkDocument(page);
    assert.deepEqual(
      chunks.map((c) => c.sectionPath),
      [[], ["Onboarding"], ["Benefits"]],
    );
  });

  it("renders every text under a custom item's nested fields, labelled by its path, within bounds", () => {
    const long = "The quokkaphant herds cross the ridge.\n\nThey return in the autumn.";
    const doc = renderAppItem(
      valid({
        kind: "custom",
        provider: "acme",
        external_id: "r1",
        title: "Record",
        fields: {
          kind: "custom",
          data: {
            title: "Record",
            body: long,
            owner: { name: "Ada", user_id: "U1" },
            steps: [{ text: "first step" }, { text: "second step" }],
            tags: ["a", "b"],
          },
          source_url: "https://example.com/r1",
        },
      }),
    );
    assert.deepEqual(
      doc.blocks.map((b) => b.text),
      [
        "Title: Record",
        "Kind: custom",
        "Data title: Record",
        "Data body: The quokkaphant herds cross the ridge.",
        "They return in the autumn.",
        "Data owner name: Ada",
        "Data steps text: first step",
        "Data steps text: second step",
        "Data tags: a, b",
      ],
    );
    let deep: Record<string, unknown> = { text: "too deep to read" };
    for (let i = 0; i < 12; i++) deep = { level: deep };
    const bounded = renderAppItem(
      valid({ kind: "custom", external_id: "r2", title: "Deep", fields: { deep, wide: Array.from({ length: 3000 }, (_, i) => ({ v: `w${i}` })) } }),
    );
    const texts = bounded.blocks.map((b) => b.text);
    assert.ok(!texts.some((x) => x.includes("too deep")), "levels past the depth bound are left out");
    assert.equal(texts.filter((x) => x.startsWith("Wide v:")).length, 2000, "texts past the count bound are left out");
  });
});
