// Minimal client for an OpenAI-compatible chat completions endpoint (hosted APIs, Ollama, vLLM).
// Every failure comes back as a value so callers can fall back to the offline rules.

export interface ChatModelConfig {
  /** e.g. "http://127.0.0.1:11434" or "https://api.example.com/v1"; `/v1` is added when missing. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Whole-request budget; default 20 s. */
  readonly timeoutMs?: number;
  /** Injected in tests or to add a proxy; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
}

/** A client configuration from configured settings (an API key of null or "" sends none). */
export function chatModelConfig(
  settings: { readonly baseUrl: string; readonly model: string; readonly apiKey: string | null },
  timeoutMs?: number,
): ChatModelConfig {
  return {
    baseUrl: settings.baseUrl,
    model: settings.model,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export type ChatResult = { readonly ok: true; readonly content: string } | { readonly ok: false; readonly reason: string };

/** `path` under an OpenAI-compatible base URL: `/v1` is added when the base names no version. */
function versionedUrl(baseUrl: string, path: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/v\d+$/.test(trimmed) ? `${trimmed}${path}` : `${trimmed}/v1${path}`;
}

function contentOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("choices" in body) || !Array.isArray(body.choices)) return undefined;
  const first: unknown = body.choices[0];
  if (typeof first !== "object" || first === null || !("message" in first)) return undefined;
  const message: unknown = first.message;
  if (typeof message !== "object" || message === null || !("content" in message)) return undefined;
  return typeof message.content === "string" ? message.content : undefined;
}

/** POSTs a JSON body to `path` of an OpenAI-compatible endpoint; the reply's JSON, or why there is none. */
export async function postJson(
  config: ChatModelConfig,
  path: string,
  body: Record<string, unknown>,
): Promise<{ readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reason: string }> {
  const send = config.fetch ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey !== undefined && config.apiKey.length > 0) headers.authorization = `Bearer ${config.apiKey}`;
  try {
    const response = await send(versionedUrl(config.baseUrl, path), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs ?? 20_000),
    });
    if (!response.ok) return { ok: false, reason: `http_${response.status}` };
    return { ok: true, body: await response.json() };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return { ok: false, reason: name === "TimeoutError" || name === "AbortError" ? "timeout" : name === "SyntaxError" ? "invalid_json" : "network_error" };
  }
}

export async function completeChat(config: ChatModelConfig, messages: readonly ChatMessage[]): Promise<ChatResult> {
  const reply = await postJson(config, "/chat/completions", { model: config.model, messages, temperature: 0, response_format: { type: "json_object" } });
  if (!reply.ok) return reply;
  const content = contentOf(reply.body);
  return content === undefined ? { ok: false, reason: "no_content" } : { ok: true, content };
}

/** Parses the JSON object a model returned, tolerating ```json fences and chatter around it. */
export function parseJsonObject(content: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  const unfenced = content.replace(/^[\s\S]*?```(?:json)?\s*([\s\S]*?)```[\s\S]*$/i, "$1");
  const start = unfenced.indexOf("{");
  const end = unfenced.lastIndexOf("}");
  if (start === -1 || end <= start) return { ok: false, reason: "no_json_object" };
  try {
    const value: unknown = JSON.parse(unfenced.slice(start, end + 1));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, reason: "not_an_object" };
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    // The model's reply is not JSON: reported to the caller as a reason, the parser's message adds nothing.
    return { ok: false, reason: "invalid_json" };
  }
}
