import Fastify, { type FastifyBaseLogger } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { App } from "./app-type.js";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { Ajv } from "ajv";
import { AppError } from "../errors/app-error.js";
import { jsonDepthExceeds, tooDeepMessage } from "../util/json-depth.js";
import type { OrgService } from "../../features/organizations/service.js";
import { API_VERSION } from "./envelope.js";
import { errorHandler, notFound } from "./error-handler.js";
import { authenticate } from "./auth.js";
import type { RequestLimiter } from "./rate-limit.js";
import type { AuthFailureLimiter } from "./auth-failure-limit.js";
import { DEPRECATED_SINCE } from "./request-state.js";
import { ROUTE_DECODED } from "./route-decoded-body.js";
import { scopeRouteHandlers } from "./row-scope-hook.js";
import { logRequestIds, requestIdOf, upstreamIdOf } from "./request-id.js";
import { markRequestLogger } from "../logger.js";
import { RequestLogController } from "./request-log.js";
import { inSystemScope } from "../store/row-scope.js";
import { DeferredSchemas } from "./deferred-schemas.js";
import type { HttpTimeouts } from "../config.js";
import { closeIdleRequestBodies, nodeServerOptions } from "./timeouts.js";

export interface ServerDeps {
  /** The application's logger; request logs are its children. */
  readonly logger: FastifyBaseLogger;
  readonly bodyLimitBytes: number;
  /** Requests one keep-alive connection carries before it is closed (0: unlimited); see Config. */
  readonly maxRequestsPerConnection: number;
  /** How long a client may take to send a request's headers and body. */
  readonly timeouts: HttpTimeouts;
  readonly orgs: OrgService;
  readonly limiter: RequestLimiter;
  /** Failed authentications per client address (AUTH_FAILURES_PER_MINUTE). */
  readonly authFailures: AuthFailureLimiter;
  /**
   * Proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES): addresses, CIDR ranges or
   * proxy-addr's names (loopback, linklocal, uniquelocal); empty: the socket's address is the client's.
   */
  readonly trustedProxies: readonly string[];
  /** Told of every error answered 5xx (the store's write health watches them for a full disk). */
  readonly onServerError: (err: unknown) => void;
  /** Told of every answered request: method, route template (undefined when none matched), status, seconds. */
  readonly onResponse: (method: string, route: string | undefined, status: number, seconds: number) => void;
}

const SUPPORTED_VERSIONS = new Set(["1", "2"]);

export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  /** Left out of /openapi.json on purpose (the document itself). */
  readonly hidden: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The routes registered on this server, in registration order. */
    readonly routeTable: readonly RegisteredRoute[];
    /** Route schemas not compiled yet (they compile on first use); see DeferredSchemas. */
    readonly deferredSchemas: DeferredSchemas;
  }
}

/**
 * The Fastify instance with the cross-cutting conventions: request ids, API-Version,
 * authentication, deprecation headers, strict body validation and one error renderer.
 * Subsystems register their routes on it afterwards.
 */
export async function createServer(deps: ServerDeps): Promise<App> {
  const schemas = new DeferredSchemas();
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new RequestLogController(),
    bodyLimit: deps.bodyLimitBytes,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // The request's logger binds its id (and a non-UUID upstream id); see logger.ts for the other loggers.
    childLoggerFactory: (logger, bindings, options, raw) => {
      const upstreamRequestId = upstreamIdOf(raw);
      return markRequestLogger(logger.child(upstreamRequestId === undefined ? bindings : { ...bindings, upstreamRequestId }, options));
    },
    // Path parameters are judged by each route's own schema (identifier rules: 400 INVALID_INPUT,
    // or 404 for an id that names nothing); Fastify's default of 100 characters answered an
    // undocumented 414 before any route ran. Node's header limit (16 KB) still bounds the URL.
    routerOptions: { maxParamLength: 16_384 },
    return503OnClosing: true,
    // req.ip: what limits per client count by (and what request lines log as remoteAddress).
    trustProxy: deps.trustedProxies.length > 0 ? [...deps.trustedProxies] : false,
    // Node answers the last request with `Connection: close` and then closes, so the client reconnects.
    maxRequestsPerSocket: deps.maxRequestsPerConnection,
    // Headers and whole-request deadlines (Node's, checked every second at most); the body's idle
    // deadline is closeIdleRequestBodies below. Fastify leaves requestTimeout off by default.
    http: nodeServerOptions(deps.timeouts),
    requestTimeout: deps.timeouts.requestMs,
    forceCloseConnections: false,
    ajv: { customOptions: {} },
    schemaController: { compilersFactory: { buildSerializer: schemas.serializerFactory() } },
  });
  app.decorate("deferredSchemas", schemas);

  // Bodies are validated strictly (a string is not a number); query strings are coerced,
  // since every query value arrives as text.
  const bodyAjv = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  const queryAjv = new Ajv({ coerceTypes: "array", useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  // Bodies marked route-decoded are documented only: their routes decode and bound each field.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === "body" && (schema as Record<string, unknown>)[ROUTE_DECODED] === true
      ? () => true
      : schemas.validator(httpPart === "body" ? bodyAjv : queryAjv, schema),
  );

  logRequestIds(app);
  closeIdleRequestBodies(app, deps.timeouts.bodyIdleMs);
  scopeRouteHandlers(app);
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: { title: "Context Store API", version: API_VERSION },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      },
      security: [{ bearer: [] }],
    },
  });
  // Every route as registered (the contract test compares it with the OpenAPI document).
  const routeTable: RegisteredRoute[] = [];
  app.decorate("routeTable", routeTable);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, hidden: route.schema?.hide === true });
  });
  // The docs page and its assets are public.
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/docs")) route.config = { ...(route.config ?? {}), auth: false, shape: "plain" };
  });
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { docExpansion: "list" } });

  // JSON bodies are checked for nesting depth before parsing, for every route (v2, v1, /byog):
  // deeper input would overflow the stack in whatever recurses over it later.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    // An empty body is no body, whatever the header says: HTTP clients (the vendor's among them)
    // set Content-Type: application/json on every request, bodyless DELETEs included. The route's
    // schema then judges it as it judges a missing body: optional bodies pass, required ones fail.
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    if (jsonDepthExceeds(text)) {
      done(new AppError("INVALID_INPUT", tooDeepMessage("The JSON body")), undefined);
      return;
    }
    void parseJson(req, text, done);
  });

  // Multipart bodies are read by the routes that take them (parts are streamed and bounded there).
  await app.register(multipart, { throwFileSizeLimit: true });
  // So are form bodies, by the routes that declare they take them (config.formBody); elsewhere
  // the Content-Type is as unsupported as any other.
  app.addContentTypeParser("application/x-www-form-urlencoded", (req, _payload, done) => {
    if (req.routeOptions.config?.formBody === true) done(null);
    else done(new AppError("INVALID_INPUT", "Unsupported Content-Type"), undefined);
  });

  app.decorateRequest("state", null as never);
  app.addHook("onRequest", async (req, reply) => {
    req.state = { startedAt: process.hrtime.bigint(), deprecations: [], principal: null, database: null, collection: null };
    void reply.header("X-Request-ID", req.id);
    void reply.header("API-Version", API_VERSION);
    const deprecatedRoute = req.routeOptions.config?.deprecatedRoute;
    if (deprecatedRoute) {
      req.state.deprecations.push({
        deprecated: true,
        message: deprecatedRoute.message,
        deprecated_since: DEPRECATED_SINCE,
      });
    }
    const version = req.headers["api-version"];
    if (typeof version === "string" && !SUPPORTED_VERSIONS.has(version.trim())) {
      throw new AppError("INVALID_INPUT", `Unsupported API-Version '${version}'; this service speaks version ${API_VERSION}`);
    }
    // Unknown routes answer 404 whatever the credentials.
    // Keys are looked up before their organization is known: system scope.
    if (!req.is404) await inSystemScope(() => authenticate(req, deps.orgs, deps.limiter, deps.authFailures));
  });
  app.addHook("onResponse", async (req, reply) => {
    deps.onResponse(req.method, req.is404 ? undefined : req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (req.state?.deprecations.length) void reply.header("Deprecation", "true");
    return payload;
  });

  app.setErrorHandler(errorHandler(deps.onServerError));
  app.setNotFoundHandler(notFound());

  app.get("/openapi.json", { config: { auth: false, shape: "plain" }, schema: { hide: true } }, async () => app.swagger());
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
