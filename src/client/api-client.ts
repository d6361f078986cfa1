// The typed client of the public HTTP API that the console, the client CLI and the MCP server share.
// Route paths, parameters and bodies are checked against src/client/api-types.ts, generated from the
// service's own /openapi.json (`npm run gen:client`), so a client cannot call a route the service
// does not have or send a field it does not accept. It runs in Node.js and in the browser.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./api-types.js";

/** A failed call: the service's error code and message (or a client-side code when no answer came). */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The service's error code (`DATABASE_NOT_FOUND`, ...), `NETWORK_ERROR` or `HTTP_<status>` for a body without one. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiClientOptions {
  /** The service's address, such as http://127.0.0.1:8080. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Another fetch (the service's own in-process dispatcher, a test's); the global one by default. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/** What a call gives back: the envelope's `data` on the enveloped routes, the body itself on the others. */
export type Unwrapped<T> = T extends { success: true; data: infer D; meta: unknown } ? D : T;

interface FetchResult<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

export interface ApiClient {
  /** The typed openapi-fetch client: `api.raw.POST("/query", { body })`. */
  readonly raw: Client<paths>;
  readonly baseUrl: string;
  /** Awaits a raw call and returns its data, or throws ApiError with the service's code and message. */
  call<T>(pending: Promise<FetchResult<T>>): Promise<Unwrapped<T>>;
  /**
   * Like `call`, with the answer's request id (the `X-Request-ID` header, the envelope's
   * `meta.request_id`): what feedback on a query refers to.
   */
  callWithRequestId<T>(pending: Promise<FetchResult<T>>): Promise<{ data: Unwrapped<T>; requestId: string }>;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The code and message of an error body in any of the service's shapes: the envelope, the legacy `{detail}`, a bare error. */
function errorOf(status: number, body: unknown): ApiError {
  const envelope = field(body, "error");
  const legacy = field(body, "detail");
  const source = typeof envelope === "object" && envelope !== null ? envelope : typeof legacy === "object" && legacy !== null ? legacy : body;
  const code = field(source, "code") ?? field(source, "error_code");
  const message = field(source, "message");
  return new ApiError(
    status,
    typeof code === "string" ? code : `HTTP_${status}`,
    typeof message === "string" ? message : `the service answered ${status}`,
    field(source, "details"),
  );
}

function unwrap<T>(data: T): Unwrapped<T> {
  const isEnvelope = field(data, "success") === true && field(data, "meta") !== undefined && field(data, "data") !== undefined;
  return (isEnvelope ? field(data, "data") : data) as Unwrapped<T>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const raw = createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const call = async <T>(pending: Promise<FetchResult<T>>): Promise<Unwrapped<T>> => {
    let result: FetchResult<T>;
    try {
      result = await pending;
    } catch (error) {
      throw new ApiError(0, "NETWORK_ERROR", `could not reach ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!result.response.ok) throw errorOf(result.response.status, result.error);
    return unwrap(result.data as T);
  };
  const callWithRequestId = async <T>(pending: Promise<FetchResult<T>>): Promise<{ data: Unwrapped<T>; requestId: string }> => {
    const data = await call(pending);
    return { data, requestId: (await pending).response.headers.get("x-request-id") ?? "" };
  };
  return { raw, baseUrl, call, callWithRequestId };
}
