import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  createEntityResolver,
  createLlmMemoryInferrer,
  createLlmRelationExtractor,
  extractEntities,
  type RelationOptions,
} from "../../src/engines/extraction/index.js";
import { startFakeChatServer, type FakeChatServer } from "../helpers/fake-chat-server.js";

const text = "Alice Walker met with Bob Jones in Lisbon yesterday.";
const options = (): RelationOptions => ({
  chunkId: "chunk-9",
  timestamp: "2024-03-05T12:00:00.000Z",
  resolver: createEntityResolver({ database: "db", collection: "c" }),
});

void describe("createLlmRelationExtractor", () => {
  let server: FakeChatServer;
  before(async () => {
    server = await startFakeChatServer([
      // 1: a valid answer, including one relation with an unknown predicate that must be dropped.
      {
        content: JSON.stringify({
          relations: [
            { source: "E1", target: "E2", predicate: "met_with", raw_predicate: "met with", confidence: 0.93, temporal: "yesterday", sentence: text },
            { source: "E1", target: "E3", predicate: "teleported_to", confidence: 0.5 },
            { source: "E9", target: "E2", predicate: "likes" },
          ],
        }),
      },
      // 2: malformed JSON.
      { content: '{"relations": [{"source": "E1",}]}' },
      // 3: valid JSON of the wrong shape.
      { content: '```json\n{"triples": []}\n```' },
      // 4: a server error.
      { status: 503, body: '{"error":{"message":"overloaded"}}' },
      // 5: too slow for the timeout.
      { delayMs: 1_000, content: '{"relations": []}' },
    ]);
  });
  after(async () => server.close());

  void it("uses the model's relations, validated against our entities and vocabulary", async () => {
    const extractor = createLlmRelationExtractor({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "fake-model" });
    const outcome = await extractor.extract(text, extractEntities(text, { reference: "2024-03-05" }), options());
    assert.equal(outcome.method, "llm");
    const relations = outcome.value.flatMap((t) => t.relations);
    assert.equal(relations.length, 1);
    assert.equal(relations[0]?.canonical_predicate, "met_with");
    assert.equal(relations[0]?.confidence, 0.93);
    assert.equal(relations[0]?.temporal_details, "yesterday");
    assert.equal(relations[0]?.synthesized, true);
    assert.equal(outcome.value[0]?.source.name, "Alice Walker");
    const request = server.requests[0];
    assert.equal(request?.path, "/v1/chat/completions");
    assert.equal(request?.authorization, "Bearer sk-test");
    assert.equal(request?.body.model, "fake-model");
    assert.match(request?.body.messages?.[1]?.content ?? "", /"id":"E1","name":"Alice Walker"/);
  });

  for (const [name, reason] of [
    ["malformed JSON", "invalid_json"],
    ["a JSON answer of the wrong shape", "invalid_shape"],
    ["an HTTP error", "http_503"],
    ["a timeout", "timeout"],
  ] as const) {
    void it(`falls back to the rules on ${name}`, async () => {
      const extractor = createLlmRelationExtractor({ baseUrl: `${server.baseUrl}/v1/`, model: "fake-model", timeoutMs: 200 });
      const outcome = await extractor.extract(text, extractEntities(text), options());
      assert.equal(outcome.method, "rules");
      assert.ok(outcome.method === "rules" && outcome.fallbackReason === reason);
      assert.ok(outcome.value.some((t) => t.relations.some((r) => r.canonical_predicate === "met_with")));
    });
  }

  void it("falls back when nothing listens", async () => {
    const extractor = createLlmRelationExtractor({ baseUrl: "http://127.0.0.1:9", model: "m", timeoutMs: 500 });
    const outcome = await extractor.extract(text, extractEntities(text), options());
    assert.equal(outcome.method, "rules");
  });
});

void describe("createLlmMemoryInferrer", () => {
  let server: FakeChatServer;
  before(async () => {
    server = await startFakeChatServer([
      { content: JSON.stringify({ memories: [{ kind: "preference", statement: "Sam enjoys weekend hikes.", evidence: "I really love hiking on weekends" }] }) },
      { content: JSON.stringify({ memories: [] }) },
      { content: "Sure! Sam likes hiking." },
    ]);
  });
  after(async () => server.close());

  void it("sends user name and custom instructions and returns the model's memory", async () => {
    const inferrer = createLlmMemoryInferrer({ baseUrl: server.baseUrl, model: "fake-model" });
    const outcome = await inferrer.infer([{ user: "I really love hiking on weekends", assistant: "Nice!" }], {
      userName: "Sam",
      customInstructions: "Only keep outdoor hobbies.",
    });
    assert.equal(outcome.method, "llm");
    assert.equal(outcome.value?.statement, "Sam enjoys weekend hikes");
    assert.equal(outcome.value?.statements[0]?.kind, "preference");
    const system = server.requests[0]?.body.messages?.[0]?.content ?? "";
    assert.match(system, /about Sam/);
    assert.match(system, /Only keep outdoor hobbies\./);
    assert.match(server.requests[0]?.body.messages?.[1]?.content ?? "", /User: I really love hiking on weekends\nAssistant: Nice!/);
  });

  void it("returns null when the model finds nothing to remember", async () => {
    const inferrer = createLlmMemoryInferrer({ baseUrl: server.baseUrl, model: "fake-model" });
    const outcome = await inferrer.infer("Hey, how are you?", { userName: "Sam" });
    assert.equal(outcome.method, "llm");
    assert.equal(outcome.value, null);
  });

  void it("falls back to the rules when the answer is not JSON", async () => {
    const inferrer = createLlmMemoryInferrer({ baseUrl: server.baseUrl, model: "fake-model" });
    const outcome = await inferrer.infer("I really love hiking on weekends", { userName: "Sam" });
    assert.equal(outcome.method, "rules");
    assert.equal(outcome.value?.statement, "Sam likes hiking on weekends");
  });
});
