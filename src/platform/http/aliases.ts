import type { FastifyRequest } from "fastify";
import { invalidInput } from "../errors/app-error.js";
import { normalizeName } from "../util/identifiers.js";
import { DEPRECATED_SINCE } from "./request-state.js";

export function deprecate(req: FastifyRequest, alias: string, canonical: string, message?: string): void {
  if (req.state.deprecations.some((d) => d.deprecated_field === alias)) return;
  req.state.deprecations.push({
    deprecated: true,
    message: message ?? `'${alias}' is deprecated; use '${canonical}'`,
    deprecated_since: DEPRECATED_SINCE,
    deprecated_field: alias,
    preferred_field: canonical,
  });
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Reads a field that also has a deprecated alias. The alias alone is accepted with a
 * deprecation notice; both with different values is a client error, never a silent pick.
 */
export function pickAliased<T>(req: FastifyRequest, source: Readonly<Record<string, unknown>>, canonical: string, alias: string): T | undefined {
  const c = source[canonical];
  const a = source[alias];
  if (isSet(a)) {
    deprecate(req, alias, canonical);
    if (isSet(c) && JSON.stringify(c) !== JSON.stringify(a)) {
      throw invalidInput(`'${canonical}' and its deprecated alias '${alias}' were both sent with different values`);
    }
    return (isSet(c) ? c : a) as T;
  }
  return isSet(c) ? (c as T) : undefined;
}

/**
 * database / tenant_id and collection / sub_tenant_id, recorded on the request for meta. The
 * collection is taken in NFC (util/identifiers.ts), as every name is; the database's name is
 * normalised by its lookup (DatabaseService.get), which also finds a database named before.
 */
export function resolveScope(req: FastifyRequest, source: Readonly<Record<string, unknown>>): { database: string | undefined; collection: string | undefined } {
  const database = pickAliased<unknown>(req, source, "database", "tenant_id");
  const given = pickAliased<unknown>(req, source, "collection", "sub_tenant_id");
  const collection = typeof given === "string" ? normalizeName(given) : given;
  // Routes whose schema cannot type these (bodies merged with query strings, as DELETE /context
  // reads them) get the check here: the randomized input suite found `"database": true` there as a 500.
  if (database !== undefined && typeof database !== "string") throw invalidInput("'database' must be a string");
  if (collection !== undefined && typeof collection !== "string") throw invalidInput("'collection' must be a string");
  if (database !== undefined) req.state.database = database;
  if (collection !== undefined) req.state.collection = collection;
  return { database, collection };
}
