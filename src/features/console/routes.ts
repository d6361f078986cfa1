import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { App } from "../../platform/http/app-type.js";
import { AppError } from "../../platform/errors/app-error.js";

// The console loads nothing from elsewhere (no CDN, no inline script or style element), so the page
// may only talk to and load from this service. frame-ancestors keeps it out of other sites' frames.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

// Public files: the API key is typed into the page, kept in the tab and sent by its own calls.
const PUBLIC = { auth: false, shape: "plain" as const };

/**
 * Serves the built web console (dist/console, or CONSOLE_DIR) at /console/, outside the API:
 * no authentication, hidden from /openapi.json. Files are read per request, so a rebuild shows
 * without a restart; when nothing is built, /console/ says how to build it.
 */
export function registerConsoleRoutes(server: App, consoleDir: string): void {
  server.get("/console", { config: PUBLIC, schema: { hide: true } }, async (_req, reply) => reply.redirect("/console/", 301));

  void server.register(
    async (scope) => {
      scope.addHook("onRoute", (route) => {
        route.config = { ...(route.config ?? {}), ...PUBLIC };
      });
      scope.addHook("onSend", async (req, reply, payload) => {
        void reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        void reply.header("X-Content-Type-Options", "nosniff");
        void reply.header("X-Frame-Options", "DENY");
        void reply.header("Referrer-Policy", "no-referrer");
        // Hashed asset names change with every build; the page itself must be fetched fresh.
        if (req.url.includes("/assets/") && reply.statusCode === 200) void reply.header("Cache-Control", "public, max-age=31536000, immutable");
        else void reply.header("Cache-Control", "no-cache");
        return payload;
      });
      scope.setNotFoundHandler((req) => {
        if (!existsSync(join(consoleDir, "index.html"))) {
          throw new AppError(
            "NOT_FOUND",
            `The web console is not built (no ${consoleDir}/index.html): run \`npm run build\`, or set CONSOLE_DIR to a built console`,
          );
        }
        throw new AppError("NOT_FOUND", `Route ${req.method} ${req.url.split("?")[0] ?? ""} not found`);
      });
      await scope.register(fastifyStatic, {
        root: consoleDir,
        prefix: "/",
        schemaHide: true,
        decorateReply: false,
        // Built later (npm run build after start) is fine: files are looked up per request.
        suppressWarning: true,
        index: ["index.html"],
        cacheControl: false,
      });
    },
    { prefix: "/console" },
  );
}
