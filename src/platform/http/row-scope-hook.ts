import type { FastifyInstance, RouteHandlerMethod } from "fastify";
import { inOrgScope, inSystemScope } from "../store/row-scope.js";

/**
 * Runs every route handler in its request's row scope (platform/store/row-scope.ts): the
 * organization of the authenticated key, which the onRequest hook has put on the request by
 * then. A route without authentication runs in system scope: health and readiness (they read no
 * organization's rows but the migration log), the docs, and signed file URLs, whose token is the
 * credential: it names the item and blob it was issued for, not their organization, so the
 * lookup by those ids runs in system scope and serves only what the signature names.
 * Register before any route: the hook wraps routes added after it.
 */
export function scopeRouteHandlers(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const handler = route.handler;
    const scoped: RouteHandlerMethod = function (this: FastifyInstance, req, reply) {
      const principal = req.state.principal;
      const run = (): unknown => handler.call(this, req, reply);
      return principal ? inOrgScope(principal.orgId, run) : inSystemScope(run);
    };
    route.handler = scoped;
  });
}
