import { type ErrorCode, statusOf } from "./codes.js";

/** An expected failure with a code from the closed table; rendered by http/error-handler.ts. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (for example Retry-After on 429). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = statusOf(code);
    this.headers = headers;
  }
}

export const invalidInput = (message: string): AppError => new AppError("INVALID_INPUT", message);
export const validationError = (message: string): AppError => new AppError("VALIDATION_ERROR", message);
export const forbidden = (message: string): AppError => new AppError("FORBIDDEN", message);
export const databaseNotFound = (name: string): AppError => new AppError("DATABASE_NOT_FOUND", `Database '${name}' not found`);
export const databaseExists = (name: string): AppError => new AppError("DATABASE_ALREADY_EXISTS", `Database '${name}' already exists`);
export const rateLimited = (retryAfterSeconds: number): AppError =>
  new AppError("RATE_LIMITED", `Rate limit exceeded; retry in ${retryAfterSeconds} seconds`, {
    "Retry-After": String(retryAfterSeconds),
  });
