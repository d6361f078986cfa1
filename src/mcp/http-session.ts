// One stateless MCP exchange over streamable HTTP: a fresh server and transport answer one POST
// with one JSON body. Loaded by routes.ts on the first /mcp request, so the SDK costs the
// service's start nothing.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ApiClient } from "../client/api-client.js";
import { createMcpServer } from "./create-mcp-server.js";
import type { McpDefaults } from "./tool-definition.js";

export async function answerMcpRequest(
  api: ApiClient,
  defaults: McpDefaults,
  onUnexpectedError: (error: unknown, tool: string) => void,
  request: Request,
  parsedBody: unknown,
): Promise<Response> {
  const server = createMcpServer(api, defaults, onUnexpectedError);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
