// The MCP server over the public API: the same ten tools for stdio and for /mcp on the service.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, type ApiClient } from "../client/api-client.js";
import type { McpDefaults, McpTool, ProgressReporter } from "./tool-definition.js";
import { MCP_TOOLS } from "./tools.js";

const SERVER_INFO = { name: "context-store", version: "0.1.0" };

const INSTRUCTIONS =
  "Context store: stores knowledge (shared content) and memory (per-user context), indexes it, and retrieves it. " +
  "Typical flow: ingest (wait=true, or poll status) -> query -> inspect or subgraph the source ids it returns -> feedback with its request_id. " +
  "graph_query runs openCypher on your own graph collections. Tool errors read CODE: message.";

/** A failure as a tool result the model can read and act on; the session goes on. */
function toolError(error: unknown): CallToolResult {
  const text = error instanceof ApiError ? `${error.code}: ${error.message}` : `INTERNAL_ERROR: ${error instanceof Error ? error.message : String(error)}`;
  return { content: [{ type: "text", text }], isError: true };
}

/** Where a tool's unexpected failure (a bug, not a refusal of the service) is reported besides the tool result. */
export type UnexpectedErrorSink = (error: unknown, tool: string) => void;

/**
 * Built on the SDK's low-level Server rather than McpServer: McpServer answers an argument that
 * fails its schema with its own wording, and these tools answer every refusal as `CODE: message`
 * with the service's codes (INVALID_INPUT for a bad argument), so the tools check their own input.
 */
export function createMcpServer(api: ApiClient, defaults: McpDefaults, onUnexpectedError?: UnexpectedErrorSink): Server {
  const tools: readonly McpTool[] = MCP_TOOLS;
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, ...t.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${request.params.name}'; the tools are ${tools.map((t) => t.name).join(", ")}`);
    const progressToken = request.params._meta?.progressToken;
    const progress: ProgressReporter | undefined =
      progressToken === undefined
        ? undefined
        : (done, total, message) => extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: done, total, message } });
    try {
      const output = await tool.run(request.params.arguments, { api, defaults, ...(progress ? { progress } : {}) });
      return { content: [{ type: "text", text: output.text }], structuredContent: output.structured, ...(output.isError ? { isError: true } : {}) };
    } catch (error) {
      if (!(error instanceof ApiError)) onUnexpectedError?.(error, tool.name);
      return toolError(error);
    }
  });
  return server;
}
