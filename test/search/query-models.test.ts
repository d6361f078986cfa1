import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import pg from "pg";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, testAppConfig, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMemories } from "../helpers/context.js";
import { startFakeChatServer, type FakeChatServer, type RecordedRequest, type ScriptedReply } from "../helpers/fake-chat-server.js";
import { startFakeRerankServer, type FakeRerankServer } from "../helpers/fake-rerank-server.js";
import { sampleOf } from "../helpers/prometheus.js";
import { createReranker } from "../../src/engines/ranking/create-reranker.js";
import { writeTinyCrossEncoder } from "../helpers/tiny-bert-model.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { createApplication } from "../../src/app.js";
import { outsideAnyScope } from "../../src/platform/store/row-scope.js";

// Thinking mode with configured models (spec: `thinking` adds query expansion and reranking): a
// rerank endpoint or a chat model reorders the first candidates, a chat model suggests words to
// look for; fast mode never asks them, and a failing or late model leaves the offline ranking.

const QUESTION = "Where has Maria made friends?";
const session = Date.parse("2023-05-08T13:00:00Z");
// The two answers share no word with the question; the other turns do.
const turns: Array<[string, string, string]> = [
  ["f1", "John", "My friends and I watched the match last night, Maria."],
  ["f2", "Maria", "Friends are great, I made pancakes for mine this morning."],
  ["gym", "Maria", "I joined a gym last week and the people there are so welcoming."],
  ["f3", "John", "Have you made any plans with your friends for the summer?"],
  ["f4", "Maria", "Not yet, my friends are all busy with work."],
  ["church", "Maria", "I started going to a nearby church and met lovely people there."],
  ["f5", "John", "Old friends are the best friends, Maria."],
];
const memories = turns.map(([id, speaker, text], i) => ({ id, text, user_name: speaker, timestamp: new Date(session + i * 60_000).toISOString() }));
const answers = (text: string): boolean => /\b(gym|church)\b/.test(text);

interface Chunk {
  id: string;
  relevancy_score: number;
}

async function results(t: TestApp, body: Record<string, unknown>): Promise<Chunk[]> {
  const res: HttpResult = await t.request("POST", "/query", {
    body: { database: "models", type: "memory", query: QUESTION, graph_context: false, max_results: 7, ...body },
  });
  assert.equal(res.status, 200, res.text);
  return field<Chunk[]>(res.body, "data.chunks");
}

const ranked = async (t: TestApp, body: Record<string, unknown>): Promise<string[]> => (await results(t, body)).map((c) => c.id);

async function modelCalls(t: TestApp, step: string, outcome: string): Promise<number> {
  const res = await t.request("GET", "/metrics", { key: null });
  return sampleOf(res.text, "context_store_query_model_calls_total", { step, outcome }) ?? 0;
}

async function appWith(env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp(env);
  await createReadyDatabase(t, "models");
  await ingestMemories(t, "models", memories);
  return t;
}

const systemPrompt = (body: RecordedRequest["body"]): string => body.messages?.find((m) => m.role === "system")?.content ?? "";

/** What the fake chat model answers, changed by the tests as they go. */
interface ChatState {
  up: boolean;
  terms: string[];
  scores: "one per passage" | "too few" | "prose";
}

/** Answers like a chat model: the expansion prompt with `terms`, the rerank prompt with 9 for an answering passage and 1 for others. */
const chatModel =
  (state: ChatState) =>
  (body: RecordedRequest["body"]): ScriptedReply => {
    const prompt = systemPrompt(body);
    if (!state.up) return { status: 500, body: '{"error":{"message":"overloaded"}}' };
    if (prompt.includes("expand questions")) return { content: JSON.stringify({ terms: state.terms }) };
    if (prompt.includes("judge search results")) {
      const passages = (body.messages?.at(-1)?.content ?? "").split("\n").filter((line) => /^\[\d+\] /.test(line));
      const scores = passages.map((p) => (answers(p) ? 9 : 1));
      if (state.scores === "prose") return { content: "The gym one is the most relevant." };
      return { content: JSON.stringify({ scores: state.scores === "too few" ? scores.slice(1) : scores }) };
    }
    // ingestion's memory inference and relation extraction: the offline rules answer instead
    return { status: 500, body: '{"error":{"message":"not in this test"}}' };
  };

describe("thinking mode with a rerank endpoint (RERANK_*)", () => {
  let t: TestApp;
  let rerank: FakeRerankServer;

  before(async () => {
    rerank = await startFakeRerankServer((_query, document) => (answers(document) ? 0.9 : 0.02));
    t = await appWith({ RERANK_BASE_URL: rerank.baseUrl, RERANK_MODEL: "rerank-test-model", RERANK_API_KEY: "rk-secret", QUERY_MODEL_TIMEOUT_MS: "400" });
  });
  after(async () => {
    await t.close();
    await rerank.close();
  });

  test("fast mode never asks the reranker", async () => {
    const before = rerank.requests.length;
    await ranked(t, { mode: "fast" });
    assert.equal(rerank.requests.length, before);
  });

  test("a failing or late endpoint leaves the offline order; a working one puts the answers first", async () => {
    rerank.behaviour = { status: 503 };
    const offline = await ranked(t, { mode: "thinking" });
    assert.equal(offline.length, 7);
    assert.ok(!answers(turns.find(([id]) => id === offline[0])![2]), `offline first: ${offline.join(",")}`);
    rerank.behaviour = { delayMs: 2_000 };
    assert.deepEqual(await ranked(t, { mode: "thinking" }), offline);
    assert.equal(await modelCalls(t, "rerank", "failed"), 2);

    rerank.behaviour = {};
    const sent = rerank.requests.length;
    const reranked = await ranked(t, { mode: "thinking" });
    assert.deepEqual(reranked.slice(0, 2).sort(), ["church", "gym"]);
    assert.deepEqual(reranked.slice(2).sort(), offline.filter((id) => id !== "gym" && id !== "church").sort());
    assert.equal(await modelCalls(t, "rerank", "ok"), 1);
    const request = rerank.requests[sent]!;
    assert.equal(request.path, "/v1/rerank");
    assert.equal(request.authorization, "Bearer rk-secret");
    assert.equal(request.body.model, "rerank-test-model");
    assert.equal(request.body.query, QUESTION);
    assert.equal(request.body.documents?.length, 7);
    assert.equal(request.body.top_n, 7);
    assert.ok(request.body.documents.some((d) => d.includes("joined a gym")));

    // Asked for one result, thinking mode still lets the reranker see its depth of candidates.
    const [only, ...more] = await ranked(t, { mode: "thinking", max_results: 1 });
    assert.ok((only === "gym" || only === "church") && more.length === 0, only);
    assert.equal(rerank.requests.at(-1)?.body.documents?.length, 7);
  });
});

describe("thinking mode with a chat model (LLM_*): query expansion and reranking", () => {
  let t: TestApp;
  let chat: FakeChatServer;
  const state: ChatState = { up: false, terms: ["gym", "church", "club"], scores: "one per passage" };

  before(async () => {
    chat = await startFakeChatServer(chatModel(state));
    t = await appWith({ LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "chat-test-model", LLM_QUERY_STEPS: "expand" });
  });
  after(async () => {
    await t.close();
    await chat.close();
  });

  test("the suggested words lift the turns that hold them; fast mode asks nothing", async () => {
    // Scores relative to f1's (a turn neither holding a suggested word nor next to one that does):
    // the expansion adds a list of its own to the fusion and changes nothing else of f1's score.
    const relative = (chunks: readonly Chunk[], id: string): number =>
      chunks.find((c) => c.id === id)!.relevancy_score / chunks.find((c) => c.id === "f1")!.relevancy_score;
    state.up = false;
    const offline = await results(t, { mode: "thinking" });
    state.up = true;
    const sent = chat.requests.length;
    await ranked(t, { mode: "fast" });
    assert.equal(chat.requests.length, sent);
    const expanded = await results(t, { mode: "thinking" });
    assert.equal(chat.requests.length, sent + 1);
    assert.match(systemPrompt(chat.requests[sent]!.body), /expand questions/);
    assert.equal(chat.requests[sent]!.body.messages?.at(-1)?.content, QUESTION);
    for (const id of ["gym", "church"])
      assert.ok(relative(expanded, id) > relative(offline, id) * 1.05, `${id}: ${relative(offline, id)} -> ${relative(expanded, id)}`);
    for (const id of ["f2", "f4"]) assert.ok(Math.abs(relative(expanded, id) - relative(offline, id)) < 0.2 * relative(offline, id), id);
    assert.equal(await modelCalls(t, "expand", "failed"), 1);
    assert.equal(await modelCalls(t, "expand", "ok"), 1);
  });
});

describe("thinking mode with a chat model reranking (LLM_QUERY_STEPS default)", () => {
  let t: TestApp;
  let chat: FakeChatServer;
  const state: ChatState = { up: true, terms: [], scores: "one per passage" };

  before(async () => {
    chat = await startFakeChatServer(chatModel(state));
    t = await appWith({ LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "chat-test-model" });
  });
  after(async () => {
    await t.close();
    await chat.close();
  });

  test("the chat model's scores put the answering turns first; a reply without one score per passage is ignored", async () => {
    state.scores = "too few";
    const offline = await ranked(t, { mode: "thinking" });
    assert.ok(
      offline.slice(0, 2).some((id) => id !== "gym" && id !== "church"),
      offline.join(","),
    );
    state.scores = "prose";
    assert.deepEqual(await ranked(t, { mode: "thinking" }), offline);
    assert.equal(await modelCalls(t, "rerank", "failed"), 2);
    state.scores = "one per passage";
    const reranked = await ranked(t, { mode: "thinking" });
    assert.deepEqual(reranked.slice(0, 2).sort(), ["church", "gym"]);
    assert.equal(await modelCalls(t, "expand", "ok"), 3);
    assert.equal(await modelCalls(t, "rerank", "ok"), 1);
  });
});

describe("thinking mode with a cross-encoder in process (RERANK_PROVIDER=transformers)", () => {
  let t: TestApp;
  const root = mkdtempSync(join(tmpdir(), "tiny-reranker-"));

  before(async () => {
    // A pair scores the sum of its words' weights: only the answering turns hold weighted words.
    writeTinyCrossEncoder(root, "tiny-cross-encoder", { gym: 2, church: 1.5 });
    t = await appWith({ RERANK_PROVIDER: "transformers", RERANK_MODEL: "tiny-cross-encoder", RERANK_MODEL_PATH: root });
  });
  after(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("the model's scores put the answering turns first, the gym turn (weight 2) ahead of the church turn (1.5)", async () => {
    const offline = await ranked(t, { mode: "fast" });
    assert.ok(offline.indexOf("gym") > 0 || offline.indexOf("church") > 1, offline.join(","));
    assert.deepEqual((await ranked(t, { mode: "thinking" })).slice(0, 2), ["gym", "church"]);
    assert.equal(await modelCalls(t, "rerank", "ok"), 1);
  });

  test("a model folder that does not hold the model fails the load (and so the start) with a clear message", async () => {
    await assert.rejects(
      createReranker({ provider: "transformers", model: "no-such-model", localModelPath: root }, 1_000),
      /could not load reranker model no-such-model under /,
    );
  });

  test("a start with such a folder fails with that message and leaves nothing of the store open", async () => {
    const db = await createTestDb({ migrated: true });
    try {
      const config = testAppConfig(db, { RERANK_PROVIDER: "transformers", RERANK_MODEL: "no-such-model", RERANK_MODEL_PATH: root });
      await assert.rejects(
        outsideAnyScope(() => createApplication(config)),
        /could not load reranker model no-such-model under /,
      );
      assert.equal(await openStoreHandles(db), 0);
    } finally {
      await db.drop();
    }
  });
});

/**
 * What this process still holds of a test store: its SQLite files open (the file, its log), or
 * connections to its PostgreSQL database other than the one asking.
 */
async function openStoreHandles(db: TestDb): Promise<number> {
  if (db.databaseUrl === null) {
    const fds = readdirSync("/proc/self/fd");
    return fds.filter((fd) => {
      try {
        return readlinkSync(join("/proc/self/fd", fd)).startsWith(db.dataDir);
      } catch {
        return false; // closed since the listing
      }
    }).length;
  }
  const client = new pg.Client({ connectionString: db.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}
