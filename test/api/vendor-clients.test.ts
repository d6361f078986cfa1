// The requests the vendor's own published clients send (its MCP server, its CLI, its benchmark
// harness), byte for byte in method, path, headers and body shape, against the real server.
// Each client's shape is restated here from its public source, not imported.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, statuses, waitTerminal } from "../helpers/ingest.js";

const DB = "vendor";

/** One raw request with exactly these headers (no JSON helper adding a Content-Type), answer checked against the contract. */
async function send(t: TestApp, method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResult> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${t.key}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  t.checkContract(method, path.split("?")[0]!, { status: res.status, headers: res.headers, text });
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
}

/** The MCP server's hand-rolled transport: JSON Content-Type on every call, a body only when there is one. */
const mcpRaw = (t: TestApp, method: string, path: string, body?: unknown): Promise<HttpResult> =>
  send(t, method, path, { "Content-Type": "application/json", "API-Version": "2" }, body === undefined ? undefined : JSON.stringify(body));

/** The SDK the MCP server and CLI wrap: JSON bodies with API-Version 2. */
const sdkJson = (t: TestApp, method: string, path: string, body: unknown): Promise<HttpResult> =>
  send(t, method, path, { "Content-Type": "application/json", "API-Version": "2" }, JSON.stringify(body));

/** The benchmark harness's admin client: httpx `data=` (a urlencoded form) with API-Version 2. */
const benchForm = (t: TestApp, path: string, fields: Record<string, string>): Promise<HttpResult> =>
  send(t, "POST", path, { "Content-Type": "application/x-www-form-urlencoded", "API-Version": "2" }, new URLSearchParams(fields).toString());

const resultIds = (res: HttpResult): string[] => field<Array<{ id: string }>>(res.body, "data.results").map((r) => r.id);
const chunkIds = (res: HttpResult): string[] => [...new Set(field<Array<{ id: string }>>(res.body, "data.chunks").map((c) => c.id))];

describe("the vendor's clients against this service", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("MCP memory ingest: the source_id it sends is the memory's id, which it lists, inspects and deletes by", async () => {
    const sourceId = "mcp-conversation-1700000000000-ab12cd34";
    // hydradb-mcp's ContextResource.ingest: SDK multipart with `memories` as a JSON string.
    const res = await ingestMultipart(t, {
      database: DB,
      collection: "mcp-user",
      type: "memory",
      upsert: "true",
      memories: JSON.stringify([
        {
          text: "Dana takes her coffee black, no sugar, and hates oat milk.",
          infer: true,
          is_markdown: false,
          custom_instructions: "Focus on extracting user preferences, habits, opinions, likes, dislikes.",
          source_id: sourceId,
          title: "Coffee preference",
        },
      ]),
    });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(resultIds(res), [sourceId]);
    await waitTerminal(t, DB, [sourceId], "mcp-user");

    const listed = await sdkJson(t, "POST", "/context/list", { database: DB, collection: "mcp-user", type: "memory", ids: [sourceId] });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      field<Array<{ memory_id: string }>>(listed.body, "data.user_memories").map((m) => m.memory_id),
      [sourceId],
    );
    const inspected = await send(t, "GET", `/context/inspect?database=${DB}&collection=mcp-user&id=${sourceId}`, { "API-Version": "2" });
    assert.equal(inspected.status, 200, inspected.text);
    const deleted = await sdkJson(t, "DELETE", "/context", { database: DB, collection: "mcp-user", ids: [sourceId], type: "memory" });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(field(deleted.body, "data.deleted_count"), 1);

    // id and source_id naming different things is refused, as any field and its alias are.
    const both = await ingestMultipart(t, { database: DB, type: "memory", memories: JSON.stringify([{ text: "x", id: "one", source_id: "two" }]) });
    assert.equal(both.status, 400, both.text);
    assert.equal(field(both.body, "error.code"), "INVALID_INPUT");
    assert.match(String(field(both.body, "error.message")), /'id' and 'source_id'/);
    const same = await ingestMultipart(t, {
      database: DB,
      type: "memory",
      memories: JSON.stringify([{ text: "Same id twice.", id: "twin", source_id: "twin" }]),
    });
    assert.deepEqual(resultIds(same), ["twin"]);
  });

  test("CLI: a memory by --source-id, and text knowledge as app_knowledge without type (blank id: one is minted)", async () => {
    // hydradb-cli _Context.ingest, through the Python SDK's multipart form.
    const memory = await ingestMultipart(t, {
      database: DB,
      collection: "cli",
      type: "memory",
      memories: JSON.stringify([
        { text: "Ravi works from Lisbon on Fridays.", infer: true, is_markdown: false, title: "Ravi", source_id: "cli-mem-1", user_name: "Ravi" },
      ]),
    });
    assert.deepEqual(resultIds(memory), ["cli-mem-1"]);
    const knowledge = await ingestMultipart(t, {
      database: DB,
      collection: "cli",
      type: "knowledge",
      app_knowledge: JSON.stringify([{ id: "cli-doc", content: { text: "The staging cluster is rebuilt every night at 02:00 UTC." }, title: "Staging" }]),
    });
    assert.equal(knowledge.status, 202, knowledge.text);
    assert.deepEqual(
      field<Array<{ id: string; status: string }>>(knowledge.body, "data.results").map((r) => [r.id, r.status]),
      [["cli-doc", "queued"]],
    );
    const minted = await ingestMultipart(t, {
      database: DB,
      collection: "cli",
      type: "knowledge",
      app_knowledge: JSON.stringify([{ id: "", content: { text: "A note the CLI sent without --source-id." } }]),
    });
    const [mintedId] = resultIds(minted);
    assert.match(mintedId ?? "", /^[0-9a-f-]{36}$/);
    const rows = await waitTerminal(t, DB, ["cli-mem-1", "cli-doc", mintedId!], "cli");
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "completed", "completed"],
    );
    const listed = await sdkJson(t, "POST", "/context/list", { database: DB, collection: "cli", ids: ["cli-doc"] });
    assert.deepEqual(
      field<Array<{ id: string; type: string; title: string }>>(listed.body, "data.sources").map((s) => [s.id, s.type, s.title]),
      [["cli-doc", "document", "Staging"]],
    );
  });

  test("MCP query with source_ids (wire `ids`): only those items are searched", async () => {
    const items = ["alpha", "beta"].map((id) => ({ id, type: "note", content: { text: `The ${id} rollout of the billing service starts Monday.` } }));
    await ingestMultipart(t, { database: DB, collection: "q", type: "knowledge", app_knowledge: JSON.stringify(items) });
    await waitTerminal(t, DB, ["alpha", "beta"], "q");
    // hydradb-mcp runQuery: kind all, thinking, alpha 0.8, recency 0, graph context on, ids from source_ids.
    const body = {
      database: DB,
      collection: "q",
      query: "billing service rollout",
      type: "all",
      max_results: 10,
      mode: "thinking",
      graph_context: true,
      alpha: 0.8,
      recency_bias: 0,
    };
    assert.deepEqual(chunkIds(await sdkJson(t, "POST", "/query", body)).sort(), ["alpha", "beta"]);
    const restricted = await sdkJson(t, "POST", "/query", { ...body, ids: ["beta"] });
    assert.equal(restricted.status, 200, restricted.text);
    assert.deepEqual(chunkIds(restricted), ["beta"]);
    assert.deepEqual(
      field<Array<{ id: string }>>(restricted.body, "data.sources").map((s) => s.id),
      ["beta"],
    );
    assert.deepEqual(chunkIds(await sdkJson(t, "POST", "/query", { ...body, ids: ["no-such-item"] })), []);
  });

  test("MCP delete tools: a DELETE with Content-Type: application/json and no body is served; a required body is still required", async () => {
    await ingestMultipart(t, { database: DB, type: "memory", memories: JSON.stringify([{ id: "to-forget", text: "Forget me." }]) });
    const v1 = await mcpRaw(t, "DELETE", `/memories/delete_memory?tenant_id=${DB}&memory_id=to-forget`);
    assert.equal(v1.status, 200, v1.text);
    const context = await mcpRaw(t, "DELETE", `/context?database=${DB}&ids=twin&type=memory`);
    assert.equal(context.status, 200, context.text);
    assert.equal(field(context.body, "data.deleted_count"), 1);
    await createReadyDatabase(t, "vendor_gone");
    const database = await mcpRaw(t, "DELETE", "/databases?database=vendor_gone");
    assert.equal(database.status, 202, database.text);

    for (const [method, path] of [
      ["POST", "/query"],
      ["POST", "/context/list"],
      ["DELETE", "/byog/collections"],
    ] as const) {
      const res = await mcpRaw(t, method, path);
      assert.equal(res.status, 400, `${method} ${path}: ${res.text}`);
      assert.equal(field(res.body, path.startsWith("/byog") ? "detail.error_code" : "error.code"), "INVALID_INPUT");
    }
  });

  test("MCP delete collection: DELETE /databases/collections?database=&collection= removes its items, keeps the others", async () => {
    await ingestMultipart(t, {
      database: DB,
      collection: "doomed",
      type: "knowledge",
      app_knowledge: JSON.stringify([{ id: "d1", type: "note", content: { text: "The doomed collection holds the walrus inventory." } }]),
    });
    await ingestMultipart(t, {
      database: DB,
      collection: "doomed",
      type: "memory",
      memories: JSON.stringify([{ id: "d2", text: "The walrus likes herring." }]),
    });
    await ingestMultipart(t, {
      database: DB,
      collection: "kept",
      type: "knowledge",
      app_knowledge: JSON.stringify([{ id: "k1", type: "note", content: { text: "The kept collection also mentions a walrus." } }]),
    });
    await waitTerminal(t, DB, ["d1", "d2"], "doomed");
    await waitTerminal(t, DB, ["k1"], "kept");

    // hydradb-mcp DatabasesResource.deleteCollection: the scope in the query string, no body.
    const path = `/databases/collections?database=${DB}&collection=doomed`;
    const res = await send(t, "DELETE", path, { Accept: "application/json", "API-Version": "2" });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [
        field(res.body, "data.database"),
        field(res.body, "data.collection"),
        field(res.body, "data.status"),
        field(res.body, "data.existed"),
        field(res.body, "data.deleted_items"),
      ],
      [DB, "doomed", "deleted", true, 2],
    );
    const listed = await send(t, "GET", `/databases/collections?database=${DB}`, { "API-Version": "2" });
    const names = field<string[]>(listed.body, "data.collections");
    assert.ok(!names.includes("doomed") && names.includes("kept"), names.join(","));
    const gone = await statuses(t, DB, ["d1", "d2"], "doomed");
    assert.deepEqual(
      gone.map((s) => s.error_code),
      ["FILE_NOT_FOUND", "FILE_NOT_FOUND"],
    );
    const query = { database: DB, query: "walrus", query_by: "text", type: "all" };
    assert.deepEqual(chunkIds(await sdkJson(t, "POST", "/query", { ...query, collection: "doomed" })), []);
    assert.deepEqual(chunkIds(await sdkJson(t, "POST", "/query", { ...query, collection: "kept" })), ["k1"]);

    // Deleting it again (or any missing collection) succeeds; the JSON transport's header is fine too.
    const again = await mcpRaw(t, "DELETE", path);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual([field(again.body, "data.existed"), field(again.body, "data.deleted_items")], [false, 0]);
    const noCollection = await send(t, "DELETE", `/databases/collections?database=${DB}`, { "API-Version": "2" });
    assert.equal(noCollection.status, 400, noCollection.text);
    const noDatabase = await send(t, "DELETE", "/databases/collections?database=nope&collection=x", { "API-Version": "2" });
    assert.equal(noDatabase.status, 404, noDatabase.text);
    assert.equal(field(noDatabase.body, "error.code"), "DATABASE_NOT_FOUND");
  });

  test("benchmark harness: app_knowledge as a urlencoded form, then status and query by tenant_id", async () => {
    // hydradb-bench HydraDBAdminClient.ingest_app_knowledge: httpx data= (a urlencoded form).
    const items = [
      {
        kind: "ticket",
        provider: "jira",
        external_id: "ERB-7",
        title: "Pager storm",
        fields: { body: "The pager storm came from a flapping health check on the ingress." },
      },
      { id: "bench-note", type: "note", content: { text: "Runbook: restart the ingress pods one at a time." } },
    ];
    const res = await benchForm(t, "/context/ingest", {
      type: "knowledge",
      tenant_id: DB,
      sub_tenant_id: "bench",
      infer: "false",
      upsert: "true",
      app_knowledge: JSON.stringify(items),
    });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(resultIds(res), ["jira:ticket:ERB-7", "bench-note"]);
    // ingest_status: GET /context/status with tenant_id, sub_tenant_id and repeated ids.
    const ids = ["jira:ticket:ERB-7", "bench-note"];
    const rows = await waitTerminal(t, DB, ids, "bench");
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "completed"],
    );
    const polled = await send(t, "GET", `/context/status?tenant_id=${DB}&sub_tenant_id=bench&ids=${encodeURIComponent(ids[0]!)}&ids=bench-note`, {
      "API-Version": "2",
    });
    assert.deepEqual(
      field<Array<{ id: string }>>(polled.body, "data.statuses").map((s) => s.id),
      ids,
    );
    // HydraDBQueryClient.query: no API-Version header.
    const query = await send(
      t,
      "POST",
      "/query",
      { "Content-Type": "application/json" },
      JSON.stringify({
        tenant_id: DB,
        sub_tenant_id: "bench",
        query: "pager storm health check",
        type: "knowledge",
        max_results: 100,
        mode: "thinking",
        alpha: 0.5,
        graph_context: false,
        query_by: "hybrid",
      }),
    );
    assert.equal(query.status, 200, query.text);
    assert.equal(chunkIds(query)[0], "jira:ticket:ERB-7");

    // The v1 upload route reads the same form; other routes still refuse the type.
    const v1 = await benchForm(t, "/ingestion/upload_knowledge", {
      tenant_id: DB,
      sub_tenant_id: "bench",
      app_knowledge: JSON.stringify([{ id: "v1-form", content: { text: "Sent to v1 as a form." } }]),
    });
    assert.equal(v1.status, 202, v1.text);
    const elsewhere = await benchForm(t, "/query", { database: DB, query: "x" });
    assert.equal(elsewhere.status, 400, elsewhere.text);
    assert.match(String(field(elsewhere.body, "error.message")), /Unsupported Content-Type/);
    const bad = await benchForm(t, "/context/ingest", { database: DB, type: "knowledge", app_knowledge: "[not json" });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(field(bad.body, "error.code"), "INVALID_INPUT");
  });
});
