import type { FastifyRequest } from "fastify";
import { AppError, rateLimited } from "../errors/app-error.js";
import type { OrgService } from "../orgs/service.js";
import type { RateLimiter } from "./rate-limit.js";

// Exactly "Bearer", one space, then a token without spaces or quotes.
const BEARER = /^Bearer ([^\s"']+)$/;

export function presentedKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = BEARER.exec(header);
  return match?.[1] ?? null;
}

/** onRequest hook body: resolves the organization behind the key, then applies the rate limit. */
export async function authenticate(req: FastifyRequest, orgs: OrgService, limiter: RateLimiter): Promise<void> {
  const config = req.routeOptions.config;
  if (config?.auth === false) return;
  const failure = (message: string): AppError =>
    config?.authFailureStatus === 403 ? new AppError("FORBIDDEN", message) : new AppError("UNAUTHORIZED", message);
  const key = presentedKey(req.headers.authorization);
  if (!key) throw failure("Missing or malformed Authorization header; expected 'Bearer <API_KEY>'");
  const principal = await orgs.authenticate(key);
  if (!principal) throw failure("Invalid, revoked or expired API key");
  req.state.principal = principal;
  const wait = limiter.take(principal.keyId);
  if (wait > 0) throw rateLimited(wait);
}

export function requirePrincipal(req: FastifyRequest): { orgId: string; keyId: string } {
  const p = req.state.principal;
  if (!p) throw new AppError("UNAUTHORIZED", "Missing or invalid API key");
  return p;
}
