import { Type } from "@sinclair/typebox";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import type { DatabaseService } from "../databases/service.js";
import { resolveDatabase } from "../databases/tenancy.js";
import { sendData } from "../../platform/http/envelope.js";
import { AUTHENTICATED, envelopeErrors, envelopeOf } from "../../platform/http/response-schemas.js";
import { FileDownloadSchema, InspectResultSchema } from "./schemas.js";
import type { InspectService } from "./inspect-service.js";

const MAX_URL_EXPIRY_SECONDS = 7 * 24 * 3600;

const InspectQuery = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1 })),
  source_id: Type.Optional(Type.String({ minLength: 1 })),
  database: Type.Optional(Type.String({ minLength: 1 })),
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  collection: Type.Optional(Type.String({ minLength: 1 })),
  sub_tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory")])),
  mode: Type.Optional(Type.Union([Type.Literal("auto"), Type.Literal("content"), Type.Literal("url"), Type.Literal("both")])),
  expiry_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_URL_EXPIRY_SECONDS })),
  include_chunks: Type.Optional(Type.Boolean({ description: "Also list the item's indexed chunks one by one (`chunks`), in order." })),
});

/** RFC 6266 file name: a plain ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Headers of every download, whatever type the uploader declared (they choose it: `text/html`,
 * `image/svg+xml`, ... would otherwise run as a page of this service's origin, with its cookies and
 * its API within reach): the browser must not guess another type (nosniff), the file is saved, not
 * shown (attachment, below), and should a browser render it anyway, the sandbox gives it an opaque
 * origin with no scripts, and `default-src 'none'` lets it load nothing. Nothing served here is
 * meant to run, so the policy is the same for every type; a client reading the bytes is unaffected.
 */
const DOWNLOAD_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cache-Control": "private, no-store",
} as const;

/** `publicUrl`: the base of presigned URLs (http/public-url.ts), never the request's Host header. */
export function registerInspectRoutes(app: App, service: InspectService, databases: DatabaseService, publicUrl: () => string): void {
  app.get(
    "/context/inspect",
    { schema: { tags: ["Context"], querystring: InspectQuery, response: { 200: envelopeOf(InspectResultSchema), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const { database, collection } = resolveScope(req, req.query);
      if (!database) throw invalidInput("'database' is required");
      const id = req.query.id ?? req.query.source_id;
      if (!id) throw invalidInput("'id' is required");
      const data = await service.inspect(await resolveDatabase(databases, org, database, collection), {
        corpus: req.query.type,
        id,
        mode: req.query.mode ?? "auto",
        expirySeconds: req.query.expiry_seconds ?? 3600,
        baseUrl: publicUrl(),
        includeChunks: req.query.include_chunks ?? false,
      });
      return sendData(req, reply, data);
    },
  );

  // The signed token is the credential: no API key, so the URL can be handed to a browser.
  app.get(
    "/context/files/:token",
    {
      config: { auth: false },
      schema: {
        tags: ["Context"],
        params: Type.Object({ token: Type.String() }),
        // No key: no 401 or rate limit; 403 for a bad or expired signature, 404 for a removed file.
        response: { 200: FileDownloadSchema, ...envelopeErrors(400, 403, 404, 500, 503) },
      },
    },
    async (req, reply) => {
      const file = await service.download(req.params.token);
      return reply
        .header("Content-Type", file.contentType)
        .header("Content-Length", String(file.bytes.byteLength))
        .header("Content-Disposition", contentDisposition(file.fileName))
        .headers(DOWNLOAD_HEADERS)
        .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
    },
  );
}
