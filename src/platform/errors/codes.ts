/**
 * The closed set of error codes the service emits, each bound to its HTTP status.
 * This table is the single source of truth: routes and services raise AppError values
 * built from it, and one renderer turns them into the envelope or the legacy shape.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_TENANT_ID: 400,
  INVALID_FILE_FORMAT: 400,
  FILE_TOO_LARGE: 400,
  INVALID_SEARCH_PARAMETERS: 400,
  /** Graph area: a Cypher query past its time budget; it was rolled back. */
  QUERY_TIMEOUT: 400,
  /** Graph area: a Cypher query past its size or memory budget (list, string, rows, worker heap); rolled back. */
  QUERY_TOO_LARGE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A file download URL whose signature does not verify (tampered or malformed). */
  FILE_URL_INVALID: 403,
  /** A file download URL past its expiry; ask inspect for a new one. */
  FILE_URL_EXPIRED: 403,
  NOT_FOUND: 404,
  DATABASE_NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  MEMORY_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  /** A connector's resource id that is not configured on it. */
  CONNECTOR_RESOURCE_NOT_FOUND: 404,
  /** GET /connectors/providers?id= of a provider this service does not have. */
  PROVIDER_NOT_FOUND: 404,
  DATABASE_ALREADY_EXISTS: 409,
  TENANT_ALREADY_EXISTS: 409,
  /** Another connector of this provider already syncs this provider_account_scope. */
  CONNECTOR_ALREADY_EXISTS: 409,
  /** The connector's state forbids the call: a sync queued or running, paused, not paused. */
  CONNECTOR_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 422,
  INVALID_MEMORY_FORMAT: 422,
  INVALID_EMBEDDING_FORMAT: 422,
  /** The provider refused the credentials (revoked, wrong, missing scope); nothing was stored. */
  CREDENTIALS_REJECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROCESSING_FAILED: 500,
  /** The provider failed or could not be reached while serving the request (discover, verify). */
  PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
