// `context-store mcp`: the MCP server on this process's stdin and stdout, calling the service
// named by the client settings. stdout carries the protocol only; anything else goes to stderr.
import { once } from "node:events";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createApiClient } from "../client/api-client.js";
import type { ClientSettings } from "../client/settings.js";
import { createMcpServer } from "./create-mcp-server.js";

/** Serves until the client closes stdin (how MCP clients end a stdio server), then returns. */
export async function runStdioMcpServer(settings: ClientSettings): Promise<void> {
  const api = createApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  const server = createMcpServer(api, { database: settings.database, collection: settings.collection }, (error, tool) =>
    console.error(`context-store mcp: tool ${tool} failed:`, error),
  );
  server.onerror = (error) => console.error(`context-store mcp: ${error.message}`);
  const ended = Promise.race([once(process.stdin, "end"), once(process.stdin, "close")]);
  await server.connect(new StdioServerTransport());
  console.error(`context-store mcp: serving ${settings.baseUrl} over stdio (database: ${settings.database ?? "none set"})`);
  await ended;
  await server.close();
}
