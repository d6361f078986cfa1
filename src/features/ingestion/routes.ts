import type { FastifyRequest } from "fastify";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { resolveDatabase } from "../databases/tenancy.js";
import type { DatabaseService } from "../databases/service.js";
import { sendData } from "../../platform/http/envelope.js";
import { validateDatabaseName } from "../databases/service.js";
import { keyProblem, nameProblem } from "../../platform/util/identifiers.js";
import { appDrafts, checkIdentifiers, fileDrafts, memoryDrafts, refuseUnreadableFiles, type DraftResult, type UploadedFile } from "./ingest-input.js";
import { envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { IngestBody, IngestOutcomeSchema } from "./schemas.js";
import type { IngestItems, IngestService } from "./service.js";
import { isFormBody, readFormBody, readMultipartBody, type UploadLimits } from "./multipart-upload.js";
import type { ArchiveLimits } from "../../engines/documents/parse/index.js";
import { decodeBoolean, decodeJsonArray, decodeJsonObject, decodePrincipals, decodeString } from "../items/json-field.js";

export interface RawIngest {
  fields: Record<string, unknown>;
  files: UploadedFile[];
  /** The fields came as text parts of a form (multipart or urlencoded), not as a JSON object. */
  form?: boolean;
  /** Limits for zip-based files, checked per file before anything is stored. */
  archive?: ArchiveLimits;
}

/**
 * Reads the ingest body (multipart, files spooled to disk within the request's budget; a form,
 * its text fields under the same limits; or a JSON object) and serves it with `handle`; spooled
 * files are removed once it is done.
 */
export async function withIngestBody<T>(req: FastifyRequest, limits: UploadLimits, handle: (raw: RawIngest) => Promise<T>): Promise<T> {
  const form = req.isMultipart() ? "multipart" : isFormBody(req) ? "urlencoded" : null;
  if (form === null) {
    if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
      throw invalidInput("the body must be multipart/form-data, application/x-www-form-urlencoded or a JSON object");
    }
    return handle({ fields: req.body as Record<string, unknown>, files: [] });
  }
  const body = form === "multipart" ? await readMultipartBody(req, limits) : await readFormBody(req, limits);
  try {
    return await handle({ fields: body.fields, files: body.files, archive: limits.archive, form: true });
  } finally {
    await body.dispose();
  }
}

/**
 * Turns an ingest body into the service request: scope with its aliases, type, upsert, ACL,
 * metadata and the per-item drafts. `forcedType` serves the v1 routes that imply the type.
 */
export function ingestRequestOf(req: FastifyRequest, raw: RawIngest, forcedType?: "knowledge" | "memory"): IngestItems & { database: string } {
  const f = raw.fields;
  const { database, collection } = resolveScope(req, f);
  if (database === undefined) throw invalidInput("'database' is required");
  validateDatabaseName(database);
  if (collection !== undefined && typeof collection !== "string") throw invalidInput("'collection' must be a string");
  const collectionProblem = collection === undefined ? null : nameProblem(collection);
  if (collectionProblem) throw invalidInput(`'collection' ${collectionProblem}`);
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
    const appKnowledge = decodeJsonArray("app_knowledge", f.app_knowledge, raw.form !== true);
    if (raw.files.length === 0 && (!appKnowledge || appKnowledge.length === 0)) {
      throw invalidInput("nothing to ingest: send 'files' and/or 'app_knowledge'");
    }
    drafts = [...fileDrafts(raw.files, documentMetadata, acl, raw.archive), ...appDrafts(appKnowledge ?? [], acl)];
    refuseUnreadableFiles(drafts);
  }
  const keys = keyProblem(metadata) ?? keyProblem(additionalMetadata);
  if (keys) throw invalidInput(`metadata ${keys}`);
  return { database, collection, corpus: type, upsert, allowDuplicates, drafts: checkIdentifiers(drafts), metadata, additionalMetadata };
}

export function registerIngestRoutes(app: App, service: IngestService, databases: DatabaseService, limits: UploadLimits): void {
  app.post(
    "/context/ingest",
    {
      config: { formBody: true },
      schema: { tags: ["Context"], body: IngestBody, response: { 202: envelopeOf(IngestOutcomeSchema), ...envelopeErrors(...WITH_BODY, 404, 422) } },
    },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const result = await withIngestBody(req, limits, async (raw) => {
        const parsed = ingestRequestOf(req, raw);
        return service.ingestInto(await resolveDatabase(databases, org, parsed.database), parsed);
      });
      return sendData(req, reply, result, 202);
    },
  );
}
