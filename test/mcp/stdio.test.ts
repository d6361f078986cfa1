import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { assertBadArgumentsAreToolErrors, runScenario } from "./scenario.js";

test("context-store mcp over stdio (the built CLI): the tools, ingest to query, subgraph, feedback, Cypher and delete", async (t) => {
  const cli = await ensureBuiltCli();
  const app = await startTestApp();
  t.after(() => app.close());
  await createReadyDatabase(app, "mcp_stdio");
  // The MCP client spawns the server and ends it (by its pid) on close.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--collection", "carol"],
    env: { CONTEXT_STORE_URL: app.baseUrl, CONTEXT_STORE_API_KEY: app.key, CONTEXT_STORE_DATABASE: "mcp_stdio", CONTEXT_STORE_COLLECTION: "ignored" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  t.after(() => client.close());

  await runScenario(client, "carol");
  await assertBadArgumentsAreToolErrors(client);
  assert.match(stderr, /serving http:\/\/127\.0\.0\.1:\d+ over stdio/, "logs go to stderr");
});

test("context-store mcp without an API key exits 2 with the reason on stderr and nothing on stdout", async () => {
  const cli = await ensureBuiltCli();
  const run = spawnSync(process.execPath, [cli, "mcp"], { env: { PATH: process.env.PATH ?? "" }, input: "", encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /INVALID_INPUT: no API key/);
});
