import { createHash, timingSafeEqual } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { AppError } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { legacyErrors } from "../../platform/http/response-schemas.js";

/** What GET /metrics serves: the text exposition of the service's instruments, sampled now. */
export interface MetricsSource {
  readonly contentType: string;
  render(): Promise<string>;
}

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : null;
  return presented !== null && timingSafeEqual(digest(presented), digest(token));
}

/**
 * GET /metrics: Prometheus text format. Open like /healthz unless METRICS_TOKEN is set; then it
 * needs `Authorization: Bearer <METRICS_TOKEN>` (the API keys of organizations do not open it:
 * the figures describe the whole deployment).
 */
export function registerMetricsRoutes(app: App, source: MetricsSource, token: string | null): void {
  app.get(
    "/metrics",
    {
      config: { auth: false, shape: "plain" },
      schema: {
        tags: ["System"],
        summary: "Prometheus metrics of the service, every process's merged (text exposition format)",
        response: { 200: { content: { "text/plain": { schema: Type.String() } } }, ...legacyErrors(400, 401, 500) },
      },
    },
    async (req, reply) => {
      if (token !== null && !bearerMatches(req.headers.authorization, token)) {
        throw new AppError("UNAUTHORIZED", "GET /metrics needs 'Authorization: Bearer <METRICS_TOKEN>'");
      }
      const body = await source.render();
      return reply.type(source.contentType).send(body);
    },
  );
}
