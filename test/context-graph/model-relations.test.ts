import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp } from "../helpers/context.js";
import { startFakeChatServer, type FakeChatServer } from "../helpers/fake-chat-server.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { allRelations } from "./graph-fixtures.js";

const answer = JSON.stringify({
  relations: [
    {
      source: "E1",
      target: "E2",
      predicate: "owns",
      raw_predicate: "founded",
      confidence: 0.95,
      temporal: "in 1975",
      sentence: "John Smith works at Microsoft.",
    },
  ],
});

describe("relation extraction through an OpenAI-compatible chat model (LLM_BASE_URL / LLM_MODEL)", () => {
  let t: TestApp;
  let chat: FakeChatServer;
  before(async () => {
    chat = await startFakeChatServer([{ content: answer }, { status: 500, body: '{"error":{"message":"overloaded"}}' }]);
    t = await startTestApp({ LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "fake-model" });
    await createReadyDatabase(t, "llm");
  });
  after(async () => {
    await t.close();
    await chat.close();
  });

  test("the model's relations are stored, synthesized, on the entities extraction found", async () => {
    await ingestApp(t, "llm", [{ id: "m1", type: "note", title: "Founding", content: { text: "John Smith works at Microsoft." } }]);
    assert.equal(chat.requests.length, 1);
    assert.equal(chat.requests[0]?.body.model, "fake-model");
    const relations = (await allRelations(t, { database: "llm", id: "m1" })).flatMap((tr) => tr.relations.map((r) => ({ tr, r })));
    const owns = relations.find(({ r }) => r.canonical_predicate === "owns");
    assert.ok(owns, JSON.stringify(relations.map(({ r }) => r.canonical_predicate)));
    assert.equal(owns.r.synthesized, true);
    assert.equal(owns.r.raw_predicate, "founded");
    assert.equal(owns.r.temporal_details, "in 1975");
    assert.equal(owns.tr.source.name, "John Smith");
    assert.equal(owns.tr.target.name, "Microsoft");
    assert.ok(!relations.some(({ r }) => r.canonical_predicate === "works_at"), "the rules did not run for this chunk");
  });

  test("a failing model falls back to the offline rules; the item still completes", async () => {
    await ingestApp(t, "llm", [{ id: "m2", type: "note", title: "Seattle", content: { text: "Grace Hopper works at IBM." } }]);
    assert.equal(chat.requests.length, 2);
    const relations = (await allRelations(t, { database: "llm", id: "m2" })).flatMap((tr) => tr.relations);
    const worksAt = relations.find((r) => r.canonical_predicate === "works_at");
    assert.ok(worksAt);
    assert.equal(worksAt.synthesized, undefined);
  });
});
