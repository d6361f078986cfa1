import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors/app-error.js";
import type { ErrorCode } from "../errors/codes.js";
import { isStoreUnavailable, isUnstorableText } from "../store/errors.js";
import { errorEnvelope, legacyError } from "./envelope.js";

/**
 * Maps anything thrown while serving a request onto the closed error table. Framework
 * errors (bad JSON, schema violations, oversized bodies) become 4xx codes; anything
 * unexpected is logged and answered 500 INTERNAL_ERROR without internals.
 */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as Partial<FastifyError> & { validation?: unknown };
  if (fe.validation) {
    return new AppError("INVALID_INPUT", fe.message ?? "Invalid request");
  }
  switch (fe.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_REQ_FILE_TOO_LARGE":
    case "FST_FILES_LIMIT":
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return new AppError("PAYLOAD_TOO_LARGE", "Request body is too large");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError("INVALID_INPUT", "Unsupported Content-Type");
    default:
      break;
  }
  if (isStoreUnavailable(err)) return new AppError("SERVICE_UNAVAILABLE", "The store is temporarily unavailable; retry with backoff");
  if (isUnstorableText(err)) return new AppError("INVALID_INPUT", "The request holds a character that cannot be stored (such as NUL)");
  const status = typeof fe.statusCode === "number" ? fe.statusCode : 500;
  if (status === 413) return new AppError("PAYLOAD_TOO_LARGE", "Request body is too large");
  if (status >= 400 && status < 500) {
    const message = fe instanceof SyntaxError || fe.code === "FST_ERR_CTP_INVALID_JSON_BODY" ? "Malformed JSON body" : fe.message;
    return new AppError("INVALID_INPUT", message ?? "Invalid request");
  }
  return new AppError("INTERNAL_ERROR", "Internal server error");
}

function renderError(req: FastifyRequest, reply: FastifyReply, appError: AppError): FastifyReply {
  for (const [k, v] of Object.entries(appError.headers)) void reply.header(k, v);
  const shape = req.routeOptions.config?.shape ?? "envelope";
  const body = shape === "envelope" ? errorEnvelope(req, appError.code, appError.message) : legacyError(appError.code, appError.message);
  return reply.code(appError.status).send(body);
}

/**
 * The one error renderer. `onServerError` is told of every error answered 5xx: the store's write
 * health learns there of failures outside its statements (a file of DATA_DIR that cannot be
 * written: an upload's spool, a stored file), so readiness reports them too.
 */
export function errorHandler(onServerError: (err: unknown) => void) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const appError = toAppError(err);
    if (appError.status >= 500) {
      onServerError(err);
      req.log.error({ err }, "request failed");
    }
    if (appError.code === "SERVICE_UNAVAILABLE") void reply.header("Retry-After", "1");
    return renderError(req, reply, appError);
  };
}

export function notFound(code: ErrorCode = "NOT_FOUND") {
  return (req: FastifyRequest, reply: FastifyReply): FastifyReply =>
    renderError(req, reply, new AppError(code, `Route ${req.method} ${req.url.split("?")[0] ?? ""} not found`));
}
