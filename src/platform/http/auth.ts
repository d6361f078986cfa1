import type { OrgTenancy } from "../tenancy.js";
import type { FastifyRequest } from "fastify";
import { AppError, rateLimited } from "../errors/app-error.js";
import type { OrgService } from "../../features/organizations/service.js";
import type { RequestLimiter } from "./rate-limit.js";
import type { AuthFailureLimiter } from "./auth-failure-limit.js";
import { clientKey } from "./client-address.js";

// Exactly "Bearer", one space, then a token without spaces or quotes.
const BEARER_EXPECTED = "expected 'Authorization: Bearer <API_KEY>'";
const BEARER = /^Bearer ([^\s"']+)$/;

/** Every 401/403 says where keys come from: a new user's first request is usually one. */
const HOW_TO_GET_A_KEY =
  "The first start of a store without organizations prints a key in its startup output; " +
  "otherwise create one with the CLI: `context-store key create` (add --org <org-id> when there are several organizations)";

/** The key of an `Authorization: Bearer <key>` header, or null when the header is missing or malformed. */
export function presentedKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = BEARER.exec(header);
  return match?.[1] ?? null;
}

const tooManyFailures = (seconds: number): AppError =>
  new AppError("RATE_LIMITED", `Too many failed authentications from this address; retry in ${seconds} seconds`, { "Retry-After": String(seconds) });

/**
 * onRequest hook body: resolves the organization behind the key, then applies the rate limit.
 * An address past its budget of failed authentications is refused first, its key not looked up;
 * a key that is not valid counts against its address (a missing header costs nothing and is not
 * counted).
 */
export async function authenticate(req: FastifyRequest, orgs: OrgService, limiter: RequestLimiter, failures: AuthFailureLimiter): Promise<void> {
  const config = req.routeOptions.config;
  if (config?.auth === false) return;
  const address = clientKey(req.ip);
  const blocked = failures.blockedFor(address);
  if (blocked > 0) throw tooManyFailures(blocked);
  const failure = (message: string): AppError =>
    config?.authFailureStatus === 403 ? new AppError("FORBIDDEN", message) : new AppError("UNAUTHORIZED", message);
  const key = presentedKey(req.headers.authorization);
  if (!key) throw failure(`Missing or malformed Authorization header; ${BEARER_EXPECTED}. ${HOW_TO_GET_A_KEY}`);
  const principal = await orgs.authenticate(key);
  if (!principal) {
    const beyond = await failures.failed(address);
    if (beyond > 0) throw tooManyFailures(beyond);
    throw failure(`Invalid, revoked or expired API key. ${HOW_TO_GET_A_KEY}`);
  }
  req.state.principal = principal;
  const wait = await limiter.take(principal.keyId);
  if (wait > 0) throw rateLimited(wait);
}

/** The organization behind the request's key: the tenancy every authenticated route starts from. */
export function orgTenancyOf(req: FastifyRequest): OrgTenancy {
  return { orgId: requirePrincipal(req).orgId };
}

export function requirePrincipal(req: FastifyRequest): { orgId: string; keyId: string } {
  const p = req.state.principal;
  if (!p) throw new AppError("UNAUTHORIZED", "Missing or invalid API key");
  return p;
}
