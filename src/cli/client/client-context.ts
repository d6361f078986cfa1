// What every client command shares: the connection flags, the settings they resolve to (flags,
// then CONTEXT_STORE_* variables) and the typed API client built from them.
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { ApiError, createApiClient, type ApiClient } from "../../client/api-client.js";
import { DEFAULT_SERVICE_URL, resolveClientSettings, type ClientSettings } from "../../client/settings.js";
import { UsageError, type Output } from "../output.js";

export type OutputOf = (command: Command) => Output;

/**
 * A command that printed its result, some of which failed (an ingest with failed files, a delete
 * with ids not deleted): rendered as `CODE: message` like any refusal, exit code 1.
 */
export class PartialFailure extends ApiError {
  constructor(code: string, message: string) {
    super(0, code, message);
  }
}

interface ConnectionFlags {
  url?: string;
  apiKey?: string;
  database?: string;
  collection?: string;
}

/** Adds --url, --api-key and (unless the command names its database otherwise) --database and --collection. */
export function withConnectionOptions(command: Command, scoped = true): Command {
  command.option("--url <url>", `the service's address (env CONTEXT_STORE_URL; default ${DEFAULT_SERVICE_URL})`);
  command.option("--api-key <key>", "the API key (env CONTEXT_STORE_API_KEY)");
  if (scoped) {
    command.option("--database <name>", "the database (env CONTEXT_STORE_DATABASE)");
    command.option("--collection <name>", "the collection within it (env CONTEXT_STORE_COLLECTION; default collection when unset)");
  }
  return command;
}

export interface ClientContext {
  readonly api: ApiClient;
  readonly settings: ClientSettings;
  readonly output: Output;
}

/** Resolves the settings of the running command; the environment is read here, at the CLI's edge. */
export function clientContext(command: Command, outputOf: OutputOf): ClientContext {
  const flags = command.optsWithGlobals<ConnectionFlags>();
  const settings = resolveClientSettings(flags, process.env);
  return { api: createApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey }), settings, output: outputOf(command) };
}

export function requireDatabase(settings: ClientSettings): string {
  if (settings.database === null) throw new UsageError("no database: set --database or CONTEXT_STORE_DATABASE");
  return settings.database;
}

/** The scope fields of a request body: the database, and the collection when one is set. */
export function scopeOf(settings: ClientSettings): { database: string; collection?: string } {
  const database = requireDatabase(settings);
  return settings.collection === null ? { database } : { database, collection: settings.collection };
}

/** A JSON flag value given inline or as @file. */
export async function jsonArgument(flag: string, value: string): Promise<unknown> {
  const text = value.startsWith("@") ? await readFile(value.slice(1), "utf8").catch((error: unknown) => failRead(flag, value, error)) : value;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function failRead(flag: string, value: string, error: unknown): never {
  throw new UsageError(`${flag}: cannot read ${value.slice(1)}: ${error instanceof Error ? error.message : String(error)}`);
}

export function jsonObject(flag: string, value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`${flag} must be a JSON object`);
  return value as Record<string, unknown>;
}

export function positiveInteger(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, not '${value}'`);
    return n;
  };
}

export function oneOf<T extends string>(flag: string, allowed: readonly T[]): (value: string) => T {
  return (value) => {
    const found = allowed.find((a) => a === value);
    if (found === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(", ")}, not '${value}'`);
    return found;
  };
}

/** Shortens text to one line of at most `max` characters. */
export function snippet(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
