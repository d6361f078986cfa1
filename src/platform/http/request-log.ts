import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/** True for a route whose request lines are debug (`config.quietRequestLog`). */
function quiet(request: FastifyRequest): boolean {
  return request.routeOptions.config.quietRequestLog === true;
}

/**
 * Fastify's request lines as they are ("incoming request" and "request completed" at info), except
 * on routes marked `quietRequestLog` (/healthz and /readyz, which supervisors and load balancers
 * call every few seconds): theirs are written at debug, so that the info log shows the traffic and
 * LOG_LEVEL=debug still shows the probes. A request that failed keeps its error line.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!quiet(request)) return super.incomingRequest(request, reply, metadata);
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (error || !quiet(request)) return super.requestCompleted(error, request, reply, metadata);
    if (!this.isLogDisabled(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
