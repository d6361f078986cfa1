import type { FastifyReply, FastifyRequest } from "fastify";
import type { ErrorCode } from "../errors/codes.js";

export const API_VERSION = "2";

export interface Meta {
  request_id: string;
  latency_ms: number;
  api_version: string;
  database?: string;
  collection?: string;
  tenant_id?: string;
  sub_tenant_id?: string;
  deprecation?: unknown[];
}

function buildMeta(req: FastifyRequest): Meta {
  const elapsed = Number(process.hrtime.bigint() - req.state.startedAt) / 1e6;
  const meta: Meta = { request_id: req.id, latency_ms: Math.round(elapsed * 1000) / 1000, api_version: API_VERSION };
  if (req.state.database !== null) {
    meta.database = req.state.database;
    meta.tenant_id = req.state.database;
  }
  if (req.state.collection !== null) {
    meta.collection = req.state.collection;
    meta.sub_tenant_id = req.state.collection;
  }
  if (req.state.deprecations.length > 0) meta.deprecation = req.state.deprecations;
  return meta;
}

/** Sends a v2 success envelope. `extra` adds top-level keys (legacy shapes that clients read there). */
export function sendData(req: FastifyRequest, reply: FastifyReply, data: unknown, status = 200, extra: Record<string, unknown> = {}): FastifyReply {
  return reply.code(status).send({ ...extra, success: true, data, error: null, meta: buildMeta(req) });
}

export function errorEnvelope(req: FastifyRequest, code: ErrorCode, message: string): object {
  return { success: false, data: null, error: { code, message }, meta: buildMeta(req) };
}

export function legacyError(code: ErrorCode | null, message: string): object {
  return { detail: { success: false, message, error_code: code } };
}
