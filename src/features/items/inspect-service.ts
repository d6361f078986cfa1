import { AppError } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import { CORPORA, type Corpus } from "./item-types.js";
import type { BlobStore } from "./blob-store.js";
import { signFileToken, verifyFileToken } from "./file-url.js";
import { appItemText, memoryText } from "./item-render.js";
import type { ResolvedDatabase } from "../databases/tenancy.js";
import { itemNotFound, scopeFor } from "./item-scope.js";
import { ItemStore, orgOf, type IndexedChunk, type ItemRow } from "./store.js";

/** `auto`: content for app items and memories, a download URL (and extracted text) for files. */
export type InspectMode = "auto" | "content" | "url" | "both";

export interface InspectRequest {
  /** undefined: knowledge first, then memory. */
  corpus: Corpus | undefined;
  id: string;
  mode: InspectMode;
  expirySeconds: number;
  /** `<scheme>://<host>` the download URL is built on. */
  baseUrl: string;
  /** Also list the indexed chunks one by one. */
  includeChunks: boolean;
}

export interface FileDownload {
  bytes: Uint8Array;
  contentType: string;
  fileName: string;
}

const MIME_BY_TYPE: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  markdown: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  txt: "text/plain; charset=utf-8",
};

const contentTypeOf = (item: ItemRow): string =>
  item.file_mime && item.file_mime !== "application/octet-stream" ? item.file_mime : (MIME_BY_TYPE[item.type] ?? "application/octet-stream");

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** GET /context/inspect and the signed file downloads it hands out. */
export class InspectService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  async inspect(scope: ResolvedDatabase, r: InspectRequest): Promise<Record<string, unknown>> {
    const items = new ItemStore(this.store.db);
    let item: ItemRow | undefined;
    for (const corpus of r.corpus ? [r.corpus] : CORPORA) {
      item = await items.findBySource(scopeFor(scope, corpus), r.id);
      if (item) break;
    }
    if (!item || (item.expires_at !== null && item.expires_at <= this.now())) throw itemNotFound(r.corpus ?? "knowledge", r.id);

    const isFile = item.origin === "file" && item.blob_id !== null;
    const wantsContent = r.mode !== "url" || !isFile;
    const wantsUrl = isFile && r.mode !== "content";
    const chunks = await new ItemStore(this.store.db).indexedChunks(orgOf(item), item.id);
    const out: Record<string, unknown> = {
      success: true,
      message: "ok",
      id: item.source_id,
      database: scope.database.name,
      collection: item.collection,
      tenant_id: scope.database.name,
      sub_tenant_id: item.collection,
      source_type: item.corpus,
      title: item.title,
      type: item.type,
      description: item.description,
      note: item.note,
      url: item.url,
      timestamp: iso(item.item_timestamp),
      metadata: JSON.parse(item.metadata) as unknown,
      additional_metadata: JSON.parse(item.additional_metadata) as unknown,
      relations: JSON.parse(item.relations) as unknown,
      app_kind: item.app_kind,
      app_provider: item.app_provider,
      app_external_id: item.app_external_id,
      indexing_status: item.status,
      chunk_count: item.chunk_count,
      original: item.content === null ? null : (JSON.parse(item.content) as unknown),
      content: wantsContent ? await this.text(item, chunks) : null,
      content_base64: null,
      presigned_url: null,
      content_type: isFile ? contentTypeOf(item) : "application/json",
      size_bytes: null,
      error: null,
    };
    if (item.corpus === "memory") {
      out.memory_content = memoryText(item);
      out.inferred_content = item.inferred_content ?? "";
      out.expires_at = iso(item.expires_at);
    }
    if (r.includeChunks) out.chunks = chunks;
    if (isFile) await this.addFile(out, item, r, wantsUrl);
    return out;
  }

  private async addFile(out: Record<string, unknown>, item: ItemRow, r: InspectRequest, wantsUrl: boolean): Promise<void> {
    const bytes = await this.blobs.get(orgOf(item), item.blob_id ?? "");
    out.file_name = item.file_name;
    out.size_bytes = bytes?.byteLength ?? null;
    if (r.mode === "content" || r.mode === "both") out.content_base64 = bytes ? Buffer.from(bytes).toString("base64") : null;
    if (wantsUrl) {
      const expiresAt = Math.floor(this.now() / 1000) + r.expirySeconds;
      const token = signFileToken(this.secret, { itemId: item.id, blobId: item.blob_id ?? "", expiresAt });
      out.presigned_url = `${r.baseUrl}/context/files/${token}`;
      out.url_expires_at = new Date(expiresAt * 1000).toISOString();
    }
  }

  /** The indexed text (chunks in order); before indexing, the text as sent. */
  private async text(item: ItemRow, chunks: readonly IndexedChunk[]): Promise<string | null> {
    if (chunks.length > 0) return chunks.map((c) => c.content).join("\n\n");
    if (item.corpus === "memory") return memoryText(item);
    return appItemText(item)?.text ?? null;
  }

  /** Serves a signed URL: the signature, then the expiry, then the item still holding that blob. */
  async download(token: string): Promise<FileDownload> {
    const check = verifyFileToken(this.secret, token, Math.floor(this.now() / 1000));
    if (!check.ok) {
      throw check.reason === "expired"
        ? new AppError("FILE_URL_EXPIRED", "This file URL has expired; request a new one from GET /context/inspect")
        : new AppError("FILE_URL_INVALID", "This file URL is not valid");
    }
    // The signature is the credential (no API key): the item is found by the id it signs, in
    // whichever organization holds it, and its blob then in that organization only.
    const [item] = await new ItemStore(this.store.db).getByIdsAcrossOrganizations([check.grant.itemId]);
    const bytes = item && item.blob_id === check.grant.blobId ? await this.blobs.get(orgOf(item), check.grant.blobId) : null;
    if (!item || !bytes) throw new AppError("FILE_NOT_FOUND", "The file no longer exists");
    return { bytes, contentType: contentTypeOf(item), fileName: item.file_name ?? item.title };
  }
}
