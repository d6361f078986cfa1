import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

interface Chunk {
  chunk_uuid: string;
  id: string;
  chunk_content: string;
  relevancy_score: number;
  type: string;
  collection: string;
  extra_context_ids: string[];
}

describe("POST /query", () => {
  let t: TestApp;
  const q = (body: Record<string, unknown>, key?: string): Promise<HttpResult> =>
    t.request("POST", "/query", { body: { database: "qa", ...body }, ...(key ? { key } : {}) });
  const chunks = (res: HttpResult): Chunk[] => field<Chunk[]>(res.body, "data.chunks");
  const ids = (res: HttpResult): string[] => [...new Set(chunks(res).map((c) => c.id))];

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "qa", {
      database_metadata_schema: [
        { name: "team", data_type: "VARCHAR", enable_match: true },
        { name: "secret_level", data_type: "INT64" },
      ],
    });
    const items = [
      {
        id: "vacation",
        type: "policy",
        title: "Vacation policy",
        content: { text: "Employees receive thirty days of paid vacation every year." },
        metadata: { team: "people", secret_level: 1 },
        additional_metadata: { region: "eu" },
      },
      {
        id: "laptop",
        type: "policy",
        title: "Laptop policy",
        content: { text: "Engineers may choose a MacBook or a ThinkPad laptop." },
        metadata: { team: "it" },
        additional_metadata: { region: "us" },
        relations: { ids: ["vacation"] },
      },
      {
        id: "deploy",
        type: "runbook",
        title: "Deploy runbook",
        content: { text: "The deploy_key rotates every Monday; run make release to ship." },
        metadata: { team: "eng" },
      },
      { id: "hidden", type: "memo", title: "Board memo", content: { text: "Confidential vacation budget for the board." }, acl: ["domain:board.example.com"] },
    ];
    assert.equal((await ingestMultipart(t, { type: "knowledge", database: "qa", app_knowledge: JSON.stringify(items) })).status, 202);
    await ingestMultipart(t, {
      type: "knowledge",
      database: "qa",
      collection: "other",
      app_knowledge: JSON.stringify([{ id: "other-vacation", type: "policy", content: { text: "Contractors get no paid vacation." } }]),
    });
    await ingestMultipart(t, {
      type: "memory",
      database: "qa",
      collection: "qa",
      memories: JSON.stringify([
        { id: "pref", text: "I prefer window seats and vegetarian meals on flights" },
        { id: "gone", text: "Temporary: my vacation starts tomorrow", expiry_time: 1 },
      ]),
    });
    // A custom app item keeping its text in nested fields (fields.data.body).
    await ingestMultipart(t, {
      type: "knowledge",
      database: "qa",
      collection: "custom",
      app_knowledge: JSON.stringify([
        {
          kind: "custom",
          provider: "acme",
          external_id: "rec-1",
          title: "Acme record",
          fields: { kind: "custom", data: { title: "Acme record", body: "Every spring the quokkaphant herds cross the northern ridge.", tags: ["fauna"] } },
        },
      ]),
    });
    await waitTerminal(t, "qa", ["vacation", "laptop", "deploy", "hidden", "pref", "gone"]);
    await waitTerminal(t, "qa", ["acme:custom:rec-1"], "custom");
    await waitTerminal(t, "qa", ["other-vacation"], "other");
    t.clock.advance(1_100); // "gone" (expiry_time 1 s) has expired
  });
  after(async () => t.close());

  test("hybrid fast query ranks the relevant item first, with sources and graph_context", async () => {
    const res = await q({ query: "how many days of paid vacation do employees get" });
    assert.equal(res.status, 200, res.text);
    assert.equal(ids(res)[0], "vacation");
    const first = chunks(res)[0]!;
    assert.equal(first.relevancy_score, 1);
    assert.ok(first.chunk_uuid && first.chunk_content.includes("thirty days"));
    const sources = field<Array<{ id: string; title: string }>>(res.body, "data.sources");
    assert.equal(new Set(sources.map((s) => s.id)).size, sources.length, "sources are deduplicated");
    assert.deepEqual(Object.keys(field<Record<string, unknown>>(res.body, "data.graph_context")).sort(), [
      "chunk_id_to_group_ids",
      "chunk_relations",
      "query_paths",
    ]);
    const noGraph = await q({ query: "vacation", graph_context: false });
    assert.equal(field(noGraph.body, "data.graph_context"), undefined);
  });

  test("collection scoping: the default collection, another collection, sub_tenant_ids (deprecated)", async () => {
    assert.ok(!ids(await q({ query: "contractors paid vacation" })).includes("other-vacation"));
    assert.deepEqual(ids(await q({ query: "contractors paid vacation", collection: "other" })), ["other-vacation"]);
    const legacy = await q({ query: "paid vacation", sub_tenant_ids: ["qa", "other"] });
    assert.equal(legacy.headers.get("deprecation"), "true");
    assert.ok(ids(legacy).includes("other-vacation") && ids(legacy).includes("vacation"));
  });

  test("metadata filters: declared match keys, nested additional_metadata, legacy document_metadata, undeclared keys ignored", async () => {
    assert.deepEqual(ids(await q({ query: "policy", metadata_filters: { team: "it" } })), ["laptop"]);
    assert.deepEqual(ids(await q({ query: "policy", metadata_filters: { additional_metadata: { region: "eu" } } })), ["vacation"]);
    const legacy = await q({ query: "policy", metadata_filters: { document_metadata: { region: "us" } } });
    assert.deepEqual(ids(legacy), ["laptop"]);
    assert.equal(legacy.headers.get("deprecation"), "true");
    const undeclared = await q({ query: "policy", metadata_filters: { secret_level: 1, nonsense: "x" } });
    assert.ok(ids(undeclared).length >= 2, "keys not declared with enable_match are ignored");
  });

  test("ACL: hidden items never appear without a matching principal", async () => {
    // without `acl` the query is not scoped to principals: the organization's backend sees everything
    assert.equal(ids(await q({ query: "confidential vacation budget board" }))[0], "hidden");
    const anyone = await q({ query: "confidential vacation budget board", acl: ["someone@example.com"] });
    assert.ok(!ids(anyone).includes("hidden"));
    const member = await q({ query: "confidential vacation budget board", acl: ["chair@board.example.com"] });
    assert.equal(ids(member)[0], "hidden");
  });

  test("memory and all: expired memories never surface; all merges both stores", async () => {
    const mem = await q({ query: "vacation starts tomorrow window seats", type: "memory" });
    assert.ok(ids(mem).includes("pref"));
    assert.ok(!ids(mem).includes("gone"));
    const all = await q({ query: "vegetarian meals and paid vacation days", type: "all" });
    const types = new Set(chunks(all).map((c) => c.type));
    assert.ok(types.has("memory") && types.has("knowledge"));
  });

  test("text mode operators: or, and, phrase; operator with hybrid is 400", async () => {
    assert.deepEqual(ids(await q({ query: "macbook rotates", query_by: "text", operator: "or" })).sort(), ["deploy", "laptop"]);
    assert.deepEqual(ids(await q({ query: "macbook rotates", query_by: "text", operator: "and" })), []);
    assert.deepEqual(ids(await q({ query: "MacBook or a ThinkPad", query_by: "text", operator: "phrase" })), ["laptop"]);
    assert.deepEqual(ids(await q({ query: "ThinkPad or a MacBook", query_by: "text", operator: "phrase" })), []);
    const bad = await q({ query: "x", operator: "and" });
    assert.equal(bad.status, 400);
    assert.equal(field(bad.body, "error.code"), "INVALID_INPUT");
  });

  test("thinking mode adds forcefully related items; fast mode ignores query_forceful_relations", async () => {
    const thinking = await q({ query: "which laptop can engineers choose", mode: "thinking", max_results: 1 });
    assert.equal(thinking.status, 200);
    assert.equal(ids(thinking)[0], "laptop");
    const extra = Object.values(field<Record<string, Chunk>>(thinking.body, "data.additional_context"));
    assert.ok(
      extra.some((c) => c.id === "vacation"),
      "the laptop item's relations.ids bring in the vacation item",
    );
    const fast = await q({ query: "which laptop can engineers choose", mode: "fast", max_results: 1, query_forceful_relations: true });
    assert.equal(fast.status, 200);
    assert.deepEqual(field(fast.body, "data.additional_context"), {});
  });

  test("ids restrict the search to those items in every mode and type, together with the other filters", async () => {
    const question = "paid vacation laptop policy window seats";
    for (const mode of ["fast", "thinking"]) {
      for (const query_by of ["hybrid", "text"]) {
        const at = `${mode}/${query_by}`;
        assert.deepEqual(ids(await q({ query: question, mode, query_by, ids: ["laptop"] })), ["laptop"], at);
        assert.deepEqual(ids(await q({ query: question, mode, query_by, type: "memory", ids: ["pref", "laptop"] })), ["pref"], at);
        assert.deepEqual(ids(await q({ query: question, mode, query_by, type: "all", ids: ["pref", "laptop"] })).sort(), ["laptop", "pref"], at);
        const sources = field<Array<{ id: string }>>((await q({ query: question, mode, query_by, ids: ["vacation"] })).body, "data.sources");
        assert.deepEqual(
          sources.map((s) => s.id),
          ["vacation"],
          at,
        );
        // with a metadata filter, an ACL or ids that name nothing visible: nothing, never a wider search
        assert.deepEqual(ids(await q({ query: question, mode, query_by, ids: ["laptop"], metadata_filters: { team: "people" } })), [], at);
        assert.deepEqual(ids(await q({ query: "confidential vacation budget", mode, query_by, ids: ["hidden"], acl: ["someone@example.com"] })), [], at);
        assert.deepEqual(ids(await q({ query: question, mode, query_by, ids: ["other-vacation", "nothing"] })), [], at);
      }
    }
    // empty ids: no restriction (as on /context/list)
    assert.ok(ids(await q({ query: question, ids: [] })).length >= 2);
  });

  test("a custom item's nested fields are indexed: a word only in fields.data.body is found", async () => {
    for (const query_by of ["text", "hybrid"]) {
      const res = await q({ query: "quokkaphant", collection: "custom", query_by });
      assert.deepEqual(ids(res), ["acme:custom:rec-1"], query_by);
      assert.match(chunks(res)[0]!.chunk_content, /Data body: Every spring the quokkaphant herds/);
    }
  });

  test("parameter rules and empty results", async () => {
    const empty = await q({ query: "zebra quantum xylophone", query_by: "text" });
    assert.equal(empty.status, 200);
    assert.deepEqual(chunks(empty), []);
    for (const body of [
      { query: "" },
      { query: "x", alpha: 2 },
      { query: "x", max_results: 0 },
      { query: "x", type: "both" },
      { query: "x", mode: "deep" },
      { query: "x", recency_bias: -1 },
      { query: 5 },
    ]) {
      const res = await q(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    const missingDb = await t.request("POST", "/query", { body: { query: "x" } });
    assert.equal(missingDb.status, 400);
    const unknown = await q({ database: "nope", query: "x" });
    assert.equal(unknown.status, 404);
    assert.equal(field(unknown.body, "error.code"), "DATABASE_NOT_FOUND");
    const aliased = await t.request("POST", "/query", { body: { tenant_id: "qa", sub_tenant_id: "qa", query: "laptop", alpha: 0.5 } });
    assert.equal(aliased.status, 200);
    assert.equal(aliased.headers.get("deprecation"), "true");
    assert.equal(ids(aliased)[0], "laptop");
  });
});
