import { Type } from "@sinclair/typebox";
import type { DatabaseService } from "../databases/service.js";
import { resolveDatabase } from "../databases/tenancy.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import type { StatusService } from "./status-service.js";
import { AUTHENTICATED, envelopeErrors, envelopeOf } from "../../platform/http/response-schemas.js";
import { StatusListSchema } from "./schemas.js";

const StatusQuery = Type.Object({
  database: Type.Optional(Type.String({ minLength: 1 })),
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  collection: Type.Optional(Type.String({ minLength: 1 })),
  sub_tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory"), Type.Literal("all")])),
});

const MAX_IDS = 1000;

/** `ids=a&ids=b`, `ids=a,b` or a JSON array string. */
export function idList(raw: string | string[] | undefined): string[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const ids = values.flatMap((v) => {
    const t = v.trim();
    if (t.startsWith("[")) {
      try {
        const parsed = JSON.parse(t) as unknown;
        if (Array.isArray(parsed)) return parsed.filter((x): x is string => typeof x === "string");
      } catch {
        // fall through: treat as a literal id
      }
    }
    return t.split(",");
  });
  return [...new Set(ids.map((i) => i.trim()).filter((i) => i.length > 0))];
}

/**
 * GET /context/status. An id not found in the given (or default) collection answers
 * `errored` / `FILE_NOT_FOUND` / `ID not found`: a scope miss, told apart only by its code.
 */
export function registerStatusRoutes(app: App, databases: DatabaseService, statuses: StatusService): void {
  app.get(
    "/context/status",
    { schema: { tags: ["Context"], querystring: StatusQuery, response: { 200: envelopeOf(StatusListSchema), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const { database, collection } = resolveScope(req, req.query);
      if (database === undefined) throw invalidInput("'database' is required");
      const ids = idList(req.query.ids);
      if (ids.length === 0) throw invalidInput("'ids' is required");
      if (ids.length > MAX_IDS) throw invalidInput(`at most ${MAX_IDS} ids per request`);
      const scope = await resolveDatabase(databases, org, database, collection);
      return sendData(req, reply, { success: true, message: "ok", statuses: await statuses.lookup(scope, ids, req.query.type) });
    },
  );
}
