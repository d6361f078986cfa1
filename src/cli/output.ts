// How every command prints: readable text by default, one JSON document with --json (for scripts
// and tests). Failures go to stderr with their code; the exit code says usage (2) or failure (1).
import { ApiError } from "../client/api-client.js";
import { ConfigError } from "../platform/config.js";

/** A mistake in how the command was called: exit code 2. */
export class UsageError extends Error {}

/** A command that could not do its work for a reason the operator can act on (shown as is): exit code 1. */
export class CommandFailure extends Error {}

export interface Output {
  readonly json: boolean;
  /** Prints the human text, or the JSON value with --json. */
  emit(human: string, json: unknown): void;
}

export function outputFor(json: boolean): Output {
  return {
    json,
    emit: (human, value) => console.log(json ? JSON.stringify(value) : human),
  };
}

/** Renders a failure once, for every command, and gives the process's exit code. */
export function reportFailure(error: unknown, json: boolean): number {
  if (error instanceof ApiError) {
    if (json) console.error(JSON.stringify({ error: { code: error.code, message: error.message, status: error.status } }));
    else console.error(`context-store: ${error.code}: ${error.message}`);
    return error.code === "INVALID_INPUT" && error.status === 0 ? 2 : 1;
  }
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(`context-store: ${error.message}`);
    return 2;
  }
  if (error instanceof CommandFailure) {
    if (json) console.error(JSON.stringify({ error: { message: error.message } }));
    else console.error(`context-store: ${error.message}`);
    return 1;
  }
  console.error(error);
  return 1;
}
