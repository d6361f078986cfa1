import { ApiError } from "../../../src/client/api-client.js";

export interface ShownError {
  readonly code: string;
  readonly message: string;
}

/** Any thrown value as a code and a message: the service's own for an ApiError, CLIENT_ERROR otherwise. */
export function shownError(error: unknown): ShownError {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: "CLIENT_ERROR", message: error instanceof Error ? error.message : String(error) };
}
