import type {} from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { AppError, invalidInput } from "../errors/app-error.js";
import type { App } from "../http/app-type.js";
import { resolveScope } from "../http/aliases.js";
import { requirePrincipal } from "../http/auth.js";
import { sendData } from "../http/envelope.js";
import { validateDatabaseName } from "../databases/service.js";
import { appDrafts, fileDrafts, memoryDrafts, type DraftResult, type UploadedFile } from "./ingest-input.js";
import { IngestBody } from "./ingest-schemas.js";
import type { IngestRequest, IngestService } from "./ingest-service.js";
import { decodeBoolean, decodeJsonArray, decodeJsonObject, decodePrincipals, decodeString } from "./json-field.js";

export interface RawIngest {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

const FILE_PARTS = new Set(["files", "documents", "file", "document"]);

/** Reads a multipart body: file parts into memory (bounded), other parts as text fields. */
async function readMultipart(req: FastifyRequest, maxUploadBytes: number): Promise<RawIngest> {
  try {
    return await readParts(req, maxUploadBytes);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // busboy's parse errors (truncated body, bad boundary) are the client's
    throw invalidInput(`malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function readParts(req: FastifyRequest, maxUploadBytes: number): Promise<RawIngest> {
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  for await (const part of req.parts({ limits: { fileSize: maxUploadBytes, files: 1000, fields: 100, fieldSize: 64 * 1024 * 1024 } })) {
    if (part.type === "file") {
      if (!FILE_PARTS.has(part.fieldname)) throw invalidInput(`unexpected file part '${part.fieldname}'; send files as 'files'`);
      const bytes = await part.toBuffer().catch((err: unknown) => {
        const code = (err as { code?: string }).code;
        if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("FILE_TOO_LARGE", `'${part.filename}' is larger than ${maxUploadBytes} bytes`);
        throw err;
      });
      files.push({ name: part.filename || "upload", mime: part.mimetype || undefined, bytes: new Uint8Array(bytes) });
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, files };
}

/** Reads the ingest body: multipart (files and text fields) or a JSON object. */
export async function readIngestBody(req: FastifyRequest, maxUploadBytes: number): Promise<RawIngest> {
  if (req.isMultipart()) return readMultipart(req, maxUploadBytes);
  if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
    throw invalidInput("the body must be multipart/form-data or a JSON object");
  }
  return { fields: req.body as Record<string, unknown>, files: [] };
}

/**
 * Turns an ingest body into the service request: scope with its aliases, type, upsert, ACL,
 * metadata and the per-item drafts. `forcedType` serves the v1 routes that imply the type.
 */
export function ingestRequestOf(req: FastifyRequest, raw: RawIngest, orgId: string, forcedType?: "knowledge" | "memory"): IngestRequest {
  const f = raw.fields;
  const { database, collection } = resolveScope(req, f);
  if (database === undefined) throw invalidInput("'database' is required");
  validateDatabaseName(database);
  if (collection !== undefined && typeof collection !== "string") throw invalidInput("'collection' must be a string");
  const type = forcedType ?? decodeString("type", f.type) ?? (f.memories !== undefined ? "memory" : "knowledge");
  if (type !== "knowledge" && type !== "memory") throw invalidInput("'type' must be 'knowledge' or 'memory'");
  const upsert = decodeBoolean("upsert", f.upsert, true);
  const allowDuplicates = decodeBoolean("allow_duplicates", f.allow_duplicates, false);
  const acl = decodePrincipals("acl", f.acl);
  const metadata = decodeJsonObject("metadata", f.metadata) ?? {};
  const additionalMetadata = decodeJsonObject("additional_metadata", f.additional_metadata) ?? {};

  let drafts: DraftResult[];
  if (type === "memory") {
    if (raw.files.length > 0) throw invalidInput("files can only be ingested as type 'knowledge'");
    const memories = decodeJsonArray("memories", f.memories);
    if (!memories || memories.length === 0) throw invalidInput("'memories' is required for type 'memory'");
    drafts = memoryDrafts(memories);
  } else {
    const documentMetadata = decodeJsonArray("document_metadata", f.document_metadata ?? f.file_metadata);
    const appKnowledge = decodeJsonArray("app_knowledge", f.app_knowledge, !req.isMultipart());
    if (raw.files.length === 0 && (!appKnowledge || appKnowledge.length === 0)) {
      throw invalidInput("nothing to ingest: send 'files' and/or 'app_knowledge'");
    }
    drafts = [...fileDrafts(raw.files, documentMetadata, acl), ...appDrafts(appKnowledge ?? [], acl)];
  }
  return { orgId, database, collection, corpus: type, upsert, allowDuplicates, drafts, metadata, additionalMetadata };
}

export function registerIngestRoutes(app: App, service: IngestService, maxUploadBytes: number): void {
  app.post("/context/ingest", { schema: { tags: ["Context"], body: IngestBody } }, async (req, reply) => {
    const { orgId } = requirePrincipal(req);
    const raw = await readIngestBody(req, maxUploadBytes);
    return sendData(req, reply, await service.ingest(ingestRequestOf(req, raw, orgId)), 202);
  });
}
