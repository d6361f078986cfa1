import assert from "node:assert/strict";
import { request } from "node:http";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCP_COLLECTION_HEADER, MCP_DATABASE_HEADER } from "../../src/mcp/routes.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { assertBadArgumentsAreToolErrors, runScenario } from "./scenario.js";

async function connect(t: { after(fn: () => Promise<void>): void }, url: URL, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  t.after(() => client.close());
  return client;
}

async function app(t: { after(fn: () => Promise<void>): void }): Promise<TestApp> {
  const started = await startTestApp();
  t.after(() => started.close());
  await createReadyDatabase(started, "mcp_http");
  return started;
}

test("/mcp over streamable HTTP: the tools, ingest to query, subgraph, feedback, Cypher and delete, defaults from headers", async (t) => {
  const a = await app(t);
  const client = await connect(t, new URL(`${a.baseUrl}/mcp`), {
    authorization: `Bearer ${a.key}`,
    [MCP_DATABASE_HEADER]: "mcp_http",
    [MCP_COLLECTION_HEADER]: "alice",
  });
  await runScenario(client, "alice");
  await assertBadArgumentsAreToolErrors(client);
});

test("/mcp takes its defaults from the query string too, and another organization's key sees none of the data", async (t) => {
  const a = await app(t);
  const client = await connect(t, new URL(`${a.baseUrl}/mcp?database=mcp_http&collection=bob`), { authorization: `Bearer ${a.key}` });
  const stored = await client.callTool({ name: "ingest", arguments: { kind: "note", type: "knowledge", id: "n1", text: "Bob keeps the spare keys." } });
  assert.equal(stored.isError, undefined, JSON.stringify(stored));
  assert.deepEqual((stored.structuredContent as Record<string, unknown>).collection, "bob");

  const other = await a.newOrgKey();
  const stranger = await connect(t, new URL(`${a.baseUrl}/mcp?database=mcp_http`), { authorization: `Bearer ${other.key}` });
  const refused = await stranger.callTool({ name: "list", arguments: {} });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /DATABASE_NOT_FOUND/);
});

test("/mcp without a valid key is 401 in the service's error shape, before any MCP work; GET and DELETE are 405", async (t) => {
  const a = await app(t);
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  for (const authorization of [undefined, "Bearer wrong-key"]) {
    const res = await fetch(`${a.baseUrl}/mcp`, { method: "POST", headers: { ...headers, ...(authorization ? { authorization } : {}) }, body: initialize });
    assert.equal(res.status, 401);
    const body = (await res.json()) as { success: boolean; error: { code: string } };
    assert.deepEqual([body.success, body.error.code], [false, "UNAUTHORIZED"]);
  }
  const withKey = await fetch(`${a.baseUrl}/mcp`, { method: "POST", headers: { ...headers, authorization: `Bearer ${a.key}` }, body: initialize });
  assert.equal(withKey.status, 200);
  assert.equal(((await withKey.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, "context-store");
  for (const method of ["GET", "DELETE"]) {
    const res = await fetch(`${a.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${a.key}`, accept: "text/event-stream" } });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get("allow"), "POST");
  }
  const noKeyGet = await fetch(`${a.baseUrl}/mcp`, { method: "GET" });
  assert.equal(noKeyGet.status, 401);
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** POST /mcp with the Host and Origin given (fetch would not send a Host of our choosing). */
function initializeWith(t: TestApp, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const url = new URL("/mcp", t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.key}`, ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

test("/mcp refuses a foreign Host or Origin (DNS rebinding): its own names at its port and localhost answer", async (t) => {
  const a = await startTestApp();
  t.after(() => a.close());
  const port = new URL(a.baseUrl).port;
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
    const res = await initializeWith(a, { host });
    assert.equal(res.status, 200, `${host}: ${res.text}`);
    const withOrigin = await initializeWith(a, { host, origin: `http://${host}` });
    assert.equal(withOrigin.status, 200, `${host} from its own origin: ${withOrigin.text}`);
  }
  const refused: Array<Record<string, string>> = [
    { host: `attacker.example:${port}` },
    { host: "localhost" },
    { host: `127.0.0.1:${Number(port) + 1}` },
    { host: `127.0.0.1:${port}`, origin: "http://attacker.example" },
    { host: `127.0.0.1:${port}`, origin: `http://attacker.example:${port}` },
  ];
  for (const headers of refused) {
    const res = await initializeWith(a, headers);
    assert.equal(res.status, 403, `${JSON.stringify(headers)}: ${res.text}`);
    assert.match(res.text, /Invalid (Host|Origin) header/);
  }
  // The SDK's own client, on the service's address, is unaffected.
  const client = await connect(t, new URL(`${a.baseUrl}/mcp`), { authorization: `Bearer ${a.key}` });
  assert.ok((await client.listTools()).tools.length > 0);
});

test("/mcp behind a proxy: MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS and PUBLIC_URL's host are taken, others still refused", async (t) => {
  const a = await startTestApp({
    MCP_ALLOWED_HOSTS: "ctx.example.com, ctx.example.com:8443",
    MCP_ALLOWED_ORIGINS: "https://console.example.org",
    PUBLIC_URL: "https://public.example.net/base",
  });
  t.after(() => a.close());
  const allowed: Array<Record<string, string>> = [
    { host: "ctx.example.com" },
    { host: "ctx.example.com:8443", origin: "https://ctx.example.com:8443" },
    { host: "ctx.example.com", origin: "https://console.example.org" },
    { host: "public.example.net", origin: "https://public.example.net" },
  ];
  for (const headers of allowed) assert.equal((await initializeWith(a, headers)).status, 200, JSON.stringify(headers));
  for (const headers of [{ host: "other.example.com" } as Record<string, string>, { host: "ctx.example.com", origin: "https://attacker.example" }]) {
    assert.equal((await initializeWith(a, headers)).status, 403, JSON.stringify(headers));
  }
});
