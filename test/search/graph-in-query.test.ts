import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

describe("the context graph inside POST /query", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "gq");
    const thread = [
      {
        kind: "message",
        provider: "slack",
        external_id: "1700000000.0001",
        fields: { channel: "C1", user: "U1", text: "The staging database is down again, @bob can you look?", thread_ts: "1700000000.0001" },
      },
      {
        kind: "message",
        provider: "slack",
        external_id: "1700000000.0002",
        fields: { channel: "C1", user: "U2", text: "Restarted the replica, disk was full.", thread_ts: "1700000000.0001" },
      },
    ];
    const res = await ingestMultipart(t, { type: "knowledge", database: "gq", app_knowledge: JSON.stringify(thread) });
    assert.equal(res.status, 202, res.text);
    const ids = field<Array<{ id: string }>>(res.body, "data.results").map((r) => r.id);
    await waitTerminal(t, "gq", ids);
  });
  after(async () => t.close());

  test("thinking mode brings in the thread's other message; graph_context has the shape of the spec", async () => {
    const res = await t.request("POST", "/query", {
      body: { database: "gq", query: "staging database down", mode: "thinking", max_results: 1, query_by: "hybrid" },
    });
    assert.equal(res.status, 200, res.text);
    const top = field<Array<{ chunk_content: string }>>(res.body, "data.chunks");
    assert.match(top[0]?.chunk_content ?? "", /staging database is down/);
    const extra = Object.values(field<Record<string, { chunk_content: string }>>(res.body, "data.additional_context"));
    assert.ok(
      extra.some((c) => /Restarted the replica/.test(c.chunk_content)),
      JSON.stringify(extra),
    );
    const graph = field<{ query_paths: unknown[]; chunk_relations: unknown[]; chunk_id_to_group_ids: Record<string, string[]> }>(
      res.body,
      "data.graph_context",
    );
    assert.ok(Array.isArray(graph.query_paths) && Array.isArray(graph.chunk_relations));
    assert.equal(typeof graph.chunk_id_to_group_ids, "object");
    const fast = await t.request("POST", "/query", { body: { database: "gq", query: "staging database down", mode: "fast", max_results: 1 } });
    assert.deepEqual(field(fast.body, "data.additional_context"), {});
  });
});
