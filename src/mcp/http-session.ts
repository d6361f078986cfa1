// One stateless MCP exchange over streamable HTTP: a fresh server and transport answer one POST.
// The answer is one JSON body, or, when a tool call asks for progress (`_meta.progressToken`), an
// event stream that carries its progress notifications and then its result. Loaded by routes.ts
// on the first /mcp request, so the SDK costs the service's start nothing.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ApiClient } from "../client/api-client.js";
import type { McpAllowedOrigins } from "./allowed-origins.js";
import { createMcpServer } from "./create-mcp-server.js";
import type { McpDefaults } from "./tool-definition.js";

/** Whether the body (one message or a batch) holds a request that asks for progress notifications. */
function asksForProgress(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

export async function answerMcpRequest(
  api: ApiClient,
  defaults: McpDefaults,
  onUnexpectedError: (error: unknown, tool: string) => void,
  request: Request,
  parsedBody: unknown,
  allowed: McpAllowedOrigins,
): Promise<Response> {
  const server = createMcpServer(api, defaults, onUnexpectedError);
  const stream = asksForProgress(parsedBody);
  // DNS-rebinding protection: a page under a foreign name that resolves to this host (a browser
  // on the machine running the service) sends that name as Host and Origin, and is refused (403).
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !stream,
    enableDnsRebindingProtection: true,
    allowedHosts: [...allowed.hosts],
    allowedOrigins: [...allowed.origins],
  });
  await server.connect(transport);
  let response: Response;
  try {
    response = await transport.handleRequest(request, { parsedBody });
  } catch (error) {
    await server.close();
    throw error;
  }
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    // JSON (or an empty 202): the exchange is over.
    const text = await response.text();
    await server.close();
    return new Response(text === "" ? null : text, { status: response.status, headers: response.headers });
  }
  // The events go out as the tool runs; the server closes once the stream ends (after the result,
  // or when the client goes away).
  const closeServer = (): void => void server.close();
  const relay = new TransformStream<Uint8Array, Uint8Array>({ flush: closeServer });
  void response.body.pipeTo(relay.writable).catch(closeServer);
  return new Response(relay.readable, { status: response.status, headers: response.headers });
}
