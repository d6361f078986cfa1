import type { OrgTenancy } from "../tenancy.js";
import type { FastifyRequest } from "fastify";
import { AppError, rateLimited } from "../errors/app-error.js";
import type { OrgService } from "../../features/organizations/service.js";
import type { RequestLimiter } from "./rate-limit.js";

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

/** onRequest hook body: resolves the organization behind the key, then applies the rate limit. */
export async function authenticate(req: FastifyRequest, orgs: OrgService, limiter: RequestLimiter): Promise<void> {
  const config = req.routeOptions.config;
  if (config?.auth === false) return;
  const failure = (message: string): AppError =>
    config?.authFailureStatus === 403 ? new AppError("FORBIDDEN", message) : new AppError("UNAUTHORIZED", message);
  const key = presentedKey(req.headers.authorization);
  if (!key) throw failure(`Missing or malformed Authorization header; ${BEARER_EXPECTED}. ${HOW_TO_GET_A_KEY}`);
  const principal = await orgs.authenticate(key);
  if (!principal) throw failure(`Invalid, revoked or expired API key. ${HOW_TO_GET_A_KEY}`);
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
