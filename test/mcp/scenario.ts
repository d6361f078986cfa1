// What both transports must do, driven through the official SDK's Client: list the ten tools,
// ingest, wait, query, subgraph, feedback, a Cypher write and read, delete, and bad arguments
// that come back as tool errors while the server keeps answering.
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { eventually } from "../helpers/harness.js";

const TOOL_NAMES = ["delete", "feedback", "graph_collections", "graph_query", "ingest", "inspect", "list", "query", "status", "subgraph"];

interface ToolAnswer {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
  return { text, structured, isError: result.isError === true };
}

/** A successful call's answer; fails the test with the tool's own error text otherwise. */
async function ok(client: Client, name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<ToolAnswer> {
  const answer = await callTool(client, name, args, options);
  assert.equal(answer.isError, false, `${name} failed: ${answer.text}`);
  return answer;
}

async function assertListsTheTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
  for (const tool of tools) {
    assert.ok((tool.description ?? "").length > 40, `${tool.name} has a description an agent can act on`);
    assert.equal(tool.inputSchema.type, "object");
    const properties = tool.inputSchema.properties ?? {};
    assert.ok(Object.keys(properties).length > 0, `${tool.name} declares its arguments`);
    for (const [name, schema] of Object.entries(properties)) {
      assert.ok(typeof (schema as { description?: unknown }).description === "string", `${tool.name}.${name} is described`);
    }
  }
  const ingest = tools.find((t) => t.name === "ingest");
  // Every argument of ingest has a default or is implied by the others (kind by turns and type).
  assert.deepEqual(ingest?.inputSchema.required ?? [], []);
  assert.equal(tools.find((t) => t.name === "delete")?.annotations?.destructiveHint, true);
}

/**
 * The full flow on a client whose defaults are `database` and `collection` (set by the transport's
 * configuration, so no call below names them unless it means to override).
 */
export async function runScenario(client: Client, collection: string): Promise<void> {
  await assertListsTheTools(client);

  // Neither kind nor type: a memory note.
  const note = await ok(client, "ingest", {
    id: "tea-note",
    text: "Alice prefers jasmine green tea in the afternoon.",
  });
  assert.deepEqual(
    [note.structured.id, note.structured.status, note.structured.collection, note.structured.type],
    ["tea-note", "queued", collection, "memory"],
  );
  // turns without kind: a conversation.
  const chat = await ok(client, "ingest", {
    type: "memory",
    title: "Bike chat",
    turns: [
      { user: "Where do I park my bike?", assistant: "Bikes go in the basement, next to the Ada meeting room." },
      { user: "And on weekends?", assistant: "The basement is closed on weekends; use the racks at the front door." },
    ],
  });
  const chatId = chat.structured.id;
  assert.ok(typeof chatId === "string" && chatId.length > 0, "a generated id comes back");
  // Waiting with a progress token: each stage the item reaches is reported once, in order.
  const progress: Progress[] = [];
  const doc = await ok(
    client,
    "ingest",
    {
      kind: "document",
      type: "knowledge",
      id: "handbook",
      title: "Office handbook",
      text: "# Office handbook\n\nThe office opens at 8 am on weekdays.\n\n## Kitchen\n\nThe espresso machine is descaled every Friday by Bob.\n",
      wait: true,
      wait_seconds: 120,
    },
    { onprogress: (p) => progress.push(p) },
  );
  assert.equal(doc.structured.id, "handbook");
  assert.equal(doc.structured.finished, true, doc.text);
  assert.equal(doc.structured.indexing_status, "completed", doc.text);
  // The first poll follows the 202 at once, long before the item is complete; the result, not a
  // notification, says completed.
  assert.ok(progress.length >= 1, "the wait reported progress");
  const stages = ["queued", "processing", "graph_creation (searchable)"];
  assert.ok(
    progress.every((p, i) => p.total === 3 && p.message === stages[p.progress] && (i === 0 || p.progress > progress[i - 1]!.progress)),
    `one notification per stage reached, in order: ${JSON.stringify(progress)}`,
  );

  const ids = ["tea-note", chatId];
  await eventually(
    async () => {
      const status = await ok(client, "status", { ids, type: "memory" });
      const rows = status.structured.statuses as { id: string; indexing_status: string }[];
      assert.deepEqual(rows.map((r) => r.id).sort(), [...ids].sort());
      assert.ok(!rows.some((r) => r.indexing_status === "errored"), status.text);
      return rows.every((r) => r.indexing_status === "completed");
    },
    120_000,
    200,
  );

  const listed = await ok(client, "list", { type: "memory" });
  assert.deepEqual((listed.structured.items as { id: string }[]).map((i) => i.id).sort(), [...ids].sort());
  const inspected = await ok(client, "inspect", { id: "handbook" });
  assert.match(String(inspected.structured.content), /descaled every Friday/);

  const found = await ok(client, "query", { query: "Who descales the espresso machine?", type: "knowledge" });
  const chunks = found.structured.chunks as { source_id: string; chunk_content: string }[];
  assert.equal(chunks[0]?.source_id, "handbook", found.text);
  assert.match(found.text, /source_id: handbook/);
  const requestId = found.structured.request_id;
  assert.match(String(requestId), /^[0-9a-f-]{36}$/);
  const memory = await ok(client, "query", { query: "What tea does Alice like?", type: "memory" });
  assert.equal((memory.structured.chunks as { source_id: string }[])[0]?.source_id, "tea-note", memory.text);

  const graph = await ok(client, "subgraph", { id: "handbook" });
  const items = graph.structured.items as { id: string; depth: number }[];
  assert.deepEqual(items[0], { id: "handbook", title: "Office handbook", depth: 0 });

  const rated = await ok(client, "feedback", { request_id: requestId, rating: "positive", feedback: "found the handbook" });
  assert.match(String(rated.structured.feedback_id), /^[0-9a-f-]{36}$/);
  assert.equal(rated.structured.request_id, requestId);

  const before = await ok(client, "graph_collections", {});
  assert.deepEqual(before.structured.collections, []);
  const created = await ok(client, "graph_query", { query: "CREATE (:Person {name: $name})-[:KNOWS]->(:Person {name: 'Bob'})", params: { name: "Alice" } });
  assert.equal(created.structured.row_count, 0);
  const read = await ok(client, "graph_query", { query: "MATCH (a:Person)-[:KNOWS]->(b) RETURN a.name AS who, b.name AS whom" });
  assert.deepEqual(read.structured.rows, [{ who: "Alice", whom: "Bob" }]);
  const after = await ok(client, "graph_collections", {});
  assert.deepEqual(after.structured.collections, [collection]);

  const deleted = await ok(client, "delete", { ids: ["tea-note"], type: "memory" });
  assert.equal(deleted.structured.deleted_count, 1);
  const gone = await ok(client, "status", { ids: ["tea-note"], type: "memory" });
  assert.equal((gone.structured.statuses as { error_code: string }[])[0]?.error_code, "FILE_NOT_FOUND");
}

/** Bad arguments are tool errors with a code; the server answers the next call as before. */
export async function assertBadArgumentsAreToolErrors(client: Client): Promise<void> {
  const wrongType = await callTool(client, "query", { query: 42 });
  assert.equal(wrongType.isError, true);
  assert.match(wrongType.text, /^INVALID_INPUT: query: /);
  const unknownField = await callTool(client, "list", { databse: "typo" });
  assert.equal(unknownField.isError, true);
  assert.match(unknownField.text, /^INVALID_INPUT: .*databse/);
  const missingTurns = await callTool(client, "ingest", { kind: "conversation", type: "memory" });
  assert.match(missingTurns.text, /^INVALID_INPUT: turns: a conversation needs turns/);
  const nothing = await callTool(client, "ingest", {});
  assert.match(nothing.text, /^INVALID_INPUT: text: a note needs text \(or turns, for a conversation\)/);
  const unknownDatabase = await callTool(client, "query", { query: "anything", database: "no_such_database" });
  assert.equal(unknownDatabase.isError, true);
  assert.match(unknownDatabase.text, /^DATABASE_NOT_FOUND: .*no_such_database/);
  const badCypher = await callTool(client, "graph_query", { query: "MATCH (n RETURN n" });
  assert.equal(badCypher.isError, true);
  assert.match(badCypher.text, /^INVALID_INPUT: /);
  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOL_NAMES.length, "the server keeps answering");
  const still = await callTool(client, "list", {});
  assert.equal(still.isError, false, still.text);
}
