// The database and collection a tool acts on: its own arguments first, then the server's defaults
// (CONTEXT_STORE_DATABASE / CONTEXT_STORE_COLLECTION for stdio, the request's for /mcp).
import { z } from "zod";
import { ApiError } from "../client/api-client.js";
import type { McpDefaults } from "./tool-definition.js";

/** The two arguments every scoped tool takes, with the same words everywhere. */
export const scopeArguments = {
  database: z.string().min(1).optional().describe("Database to use; defaults to the one the MCP server was configured with."),
  collection: z
    .string()
    .min(1)
    .optional()
    .describe("Collection (a user, team or workspace partition) inside the database; defaults to the configured one, else the default collection."),
};

export interface ToolScope {
  readonly database: string;
  /** Absent: the database's default collection. */
  readonly collection?: string;
}

export function scopeOf(args: { database?: string | undefined; collection?: string | undefined }, defaults: McpDefaults): ToolScope {
  const database = args.database ?? defaults.database;
  if (database === null) {
    throw new ApiError(0, "INVALID_INPUT", "no database: pass `database`, or configure one (CONTEXT_STORE_DATABASE, --database, or the /mcp request's)");
  }
  const collection = args.collection ?? defaults.collection;
  return collection === null ? { database } : { database, collection };
}

/** For the graph area, where every query names a collection. */
export function graphScopeOf(args: { database?: string | undefined; collection?: string | undefined }, defaults: McpDefaults): Required<ToolScope> {
  const scope = scopeOf(args, defaults);
  if (scope.collection === undefined) throw new ApiError(0, "INVALID_INPUT", "no collection: pass `collection` (the graph to query), or configure one");
  return { database: scope.database, collection: scope.collection };
}

/** Text cut to a budget, so one long item does not flood the model's context. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... [${text.length - max} more characters]`;
}
