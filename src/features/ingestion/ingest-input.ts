import { createHash, randomUUID } from "node:crypto";
import { AppError, invalidInput, validationError } from "../../platform/errors/app-error.js";
import { validateAppItem } from "../../engines/documents/app-items/index.js";
import { identifierProblem, keyProblem } from "../../platform/util/identifiers.js";
import { checkArchiveDirectory, detectFormat, type ArchiveLimits } from "../../engines/documents/parse/index.js";
import type { Corpus, ItemOrigin } from "../items/item-types.js";
import { decodeJsonObject, decodePrincipals, decodeRelationIds, isPlainObject } from "../items/json-field.js";

export interface UploadedFile {
  readonly name: string;
  readonly mime: string | undefined;
  readonly bytes: Uint8Array;
}

/** One item as accepted from a request, before storage. */
export interface ItemDraft {
  sourceId: string;
  corpus: Corpus;
  /** Per-item collection (app items may carry one); null: the request's. */
  collection: string | null;
  origin: ItemOrigin;
  title: string;
  type: string;
  description: string | null;
  note: string | null;
  url: string | null;
  timestamp: number | null;
  metadata: Record<string, unknown>;
  additional: Record<string, unknown>;
  relationIds: string[];
  acl: string[] | null;
  app: { kind: string; provider: string | null; externalId: string | null; threadId: string | null; parentId: string | null } | null;
  /** JSON of the app item or memory as sent. */
  content: string | null;
  file: UploadedFile | null;
  /** SHA-256 (hex) of the file's bytes. */
  contentHash: string | null;
  /** Files only: the caller named the item (an id in document_metadata), so it is upserted by id, never deduplicated. */
  idGiven: boolean;
  infer: boolean;
  customInstructions: string | null;
  userName: string | null;
  expirySeconds: number | null;
  /** Set on items a connector writes (POST /query shows them only with query_apps). */
  connectorId: string | null;
}

export type DraftResult = { ok: true; draft: ItemDraft } | { ok: false; id: string; code: string; message: string; fileName?: string };

const blankDraft = (sourceId: string, corpus: Corpus, origin: ItemOrigin): ItemDraft => ({
  sourceId,
  corpus,
  collection: null,
  origin,
  title: sourceId,
  type: origin,
  description: null,
  note: null,
  url: null,
  timestamp: null,
  metadata: {},
  additional: {},
  relationIds: [],
  acl: null,
  app: null,
  content: null,
  file: null,
  contentHash: null,
  idGiven: false,
  infer: false,
  customInstructions: null,
  userName: null,
  expirySeconds: null,
  connectorId: null,
});

/** 100 years: beyond it an expiry is no expiry, and the instant would not fit the stores' integer column. */
const MAX_EXPIRY_SECONDS = 100 * 365 * 24 * 3600;

const optString = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const toMillis = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

const shortId = (id: string): string => (id.length > 80 ? `${id.slice(0, 80)}...` : id);

/** Why a draft's caller-chosen identifiers break the rules (util/identifiers.ts), or null. */
function identifiersProblem(d: ItemDraft): string | null {
  const id = identifierProblem(d.sourceId);
  if (id) return `id ${id}`;
  for (const rel of d.relationIds) {
    const problem = identifierProblem(rel);
    if (problem) return `relations.ids entry ${problem}`;
  }
  const meta = keyProblem(d.metadata) ?? keyProblem(d.additional);
  return meta ? `metadata ${meta}` : null;
}

/**
 * Enforces the identifier rules on drafts: a knowledge item breaking them fails on its own (400
 * INVALID_INPUT in its result row), a memory fails the request, as other memory errors do.
 */
export function checkIdentifiers(drafts: readonly DraftResult[]): DraftResult[] {
  return drafts.map((r) => {
    if (!r.ok) return { ...r, id: shortId(r.id) };
    const problem = identifiersProblem(r.draft);
    if (problem === null) return r;
    if (r.draft.corpus === "memory") throw invalidInput(`memory '${shortId(r.draft.sourceId)}': ${problem}`);
    return { ok: false, id: shortId(r.draft.sourceId), code: "INVALID_INPUT", message: problem };
  });
}

/** Files, each bound by order to its `document_metadata` entry; a count mismatch is 422. */
export function fileDrafts(files: readonly UploadedFile[], documentMetadata: unknown[] | null, acl: string[] | null, archive?: ArchiveLimits): DraftResult[] {
  if (documentMetadata && documentMetadata.length !== files.length) {
    throw validationError(`document_metadata has ${documentMetadata.length} entries for ${files.length} files; they pair by order`);
  }
  return files.map((file, i) => {
    const meta = documentMetadata?.[i];
    if (meta !== undefined && meta !== null && !isPlainObject(meta)) {
      return { ok: false, id: file.name, fileName: file.name, code: "INVALID_INPUT", message: `document_metadata[${i}] must be an object` };
    }
    const givenId = optString(meta?.id);
    const id = givenId ?? randomUUID();
    const bytes = file.bytes;
    const detected = detectFormat(bytes, file.name, file.mime);
    if (!detected.ok) return { ok: false, id, fileName: file.name, code: "INVALID_FILE_FORMAT", message: detected.message };
    // A zip bomb is refused here from its directory, before it is stored; the parser checks again, fully.
    const archiveCheck = detected.format === "docx" && archive ? checkArchiveDirectory(bytes, archive) : null;
    if (archiveCheck && !archiveCheck.ok && archiveCheck.code === "FILE_TOO_LARGE") {
      return { ok: false, id, fileName: file.name, code: "FILE_TOO_LARGE", message: `${file.name}: ${archiveCheck.message}` };
    }
    try {
      const draft = blankDraft(id, "knowledge", "file");
      draft.title = optString(meta?.title) ?? file.name;
      draft.type = detected.format;
      draft.file = file;
      draft.contentHash = createHash("sha256").update(file.bytes).digest("hex");
      draft.idGiven = givenId !== null;
      draft.description = optString(meta?.description);
      draft.note = optString(meta?.note);
      draft.url = optString(meta?.url);
      const ts = optString(meta?.timestamp);
      draft.timestamp = ts && !Number.isNaN(Date.parse(ts)) ? Date.parse(ts) : null;
      draft.relationIds = decodeRelationIds(`document_metadata[${i}].relations`, meta?.relations);
      draft.acl = decodePrincipals(`document_metadata[${i}].acl`, meta?.acl) ?? acl;
      return { ok: true, draft };
    } catch (err) {
      return { ok: false, id, fileName: file.name, code: "INVALID_INPUT", message: err instanceof Error ? err.message : String(err) };
    }
  });
}

/**
 * A request whose only content is files, every one of them refused before storage (a type the
 * parsers do not read, a zip bomb), is refused as a whole: nothing would be stored, so a 202 with
 * made-up ids would only announce items that never exist. In a request with anything acceptable,
 * refused files stay failed rows beside the rest (a bulk call succeeds with per-item failures).
 */
export function refuseUnreadableFiles(drafts: readonly DraftResult[]): void {
  const refusals: Array<{ code: FileRefusal; message: string }> = [];
  for (const d of drafts) {
    if (d.ok || d.fileName === undefined || !isFileRefusal(d.code)) return;
    refusals.push({ code: d.code, message: d.message });
  }
  const first = refusals[0];
  if (first !== undefined) throw new AppError(first.code, refusals.map((r) => r.message).join("; "));
}

type FileRefusal = "INVALID_FILE_FORMAT" | "FILE_TOO_LARGE";
const isFileRefusal = (code: string): code is FileRefusal => code === "INVALID_FILE_FORMAT" || code === "FILE_TOO_LARGE";

/** App items: malformed ones fail one by one, the rest proceed. */
export function appDrafts(items: readonly unknown[], acl: string[] | null): DraftResult[] {
  return items.map((raw, i) => {
    const v = validateAppItem(raw, i);
    if (!v.ok) {
      const id = isPlainObject(raw) && typeof raw.id === "string" ? raw.id : `app_knowledge[${i}]`;
      return { ok: false, id, code: v.code, message: v.message };
    }
    const item = v.item;
    const draft = blankDraft(item.id, "knowledge", "app");
    draft.collection = item.collection;
    draft.title = item.title;
    draft.type = item.type;
    draft.description = item.description;
    draft.url = item.url;
    draft.timestamp = toMillis(item.timestamp);
    draft.metadata = item.metadata;
    draft.additional = item.additionalMetadata;
    draft.relationIds = item.relations.flatMap((r) => (r.target.type === "id" ? [r.target.id] : r.target.id ? [r.target.id] : []));
    draft.acl = item.acl?.map((p) => p.toLowerCase()) ?? acl;
    draft.app = { kind: item.kind, provider: item.provider, externalId: item.externalId, threadId: item.threadId, parentId: item.parentId };
    draft.content = JSON.stringify(raw);
    return { ok: true, draft };
  });
}

function memoryMetadata(i: number, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === "") return {};
  if (typeof value !== "string") {
    throw invalidInput(`memories[${i}].metadata must be a string holding a JSON object, not ${Array.isArray(value) ? "an array" : typeof value}`);
  }
  return decodeJsonObject(`memories[${i}].metadata`, value) ?? {};
}

function pairsOf(i: number, value: unknown): Array<{ user: string; assistant: string }> {
  if (!Array.isArray(value) || value.length === 0) throw invalidInput(`memories[${i}].user_assistant_pairs must be a non-empty array`);
  return value.map((p, j) => {
    if (!isPlainObject(p) || typeof p.user !== "string" || typeof p.assistant !== "string") {
      throw invalidInput(`memories[${i}].user_assistant_pairs[${j}] must be {user: string, assistant: string}`);
    }
    return { user: p.user, assistant: p.assistant };
  });
}

/**
 * When a memory happened (`timestamp`, or its alias `created_at`, ISO 8601): conversation
 * imports carry their session dates this way. Absent: the ingest time, as before.
 */
function memoryTimestamp(i: number, raw: Record<string, unknown>): number | null {
  const value = optString(raw.timestamp) ?? optString(raw.created_at);
  if (value === null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidInput(`memories[${i}].timestamp must be an ISO 8601 date or date-time`);
  return ms;
}

/**
 * The id an item names itself by: `id`, or `source_id` (what the vendor's MCP server and CLI send,
 * and later list, inspect and delete the item by). Both with different values: 400, as for any
 * canonical field and its alias. Null: none given (or blank), the caller mints one.
 */
function itemIdOf(path: string, raw: Record<string, unknown>): string | null {
  const id = optString(raw.id);
  const sourceId = optString(raw.source_id);
  if (id !== null && sourceId !== null && id !== sourceId) {
    throw invalidInput(`${path}: 'id' and 'source_id' name the same thing and were sent with different values ('${shortId(id)}', '${shortId(sourceId)}')`);
  }
  return id ?? sourceId;
}

/** Memories are validated as a whole: a malformed memory fails the request (400 / 422). */
export function memoryDrafts(items: readonly unknown[]): DraftResult[] {
  return items.map((raw, i) => {
    if (!isPlainObject(raw)) throw invalidInput(`memories[${i}] must be an object`);
    const hasText = typeof raw.text === "string" && raw.text.trim().length > 0;
    const hasPairs = raw.user_assistant_pairs !== undefined && raw.user_assistant_pairs !== null;
    if (!hasText && !hasPairs) throw validationError(`memories[${i}] needs 'text' or 'user_assistant_pairs'`);
    if (hasText && hasPairs) throw validationError(`memories[${i}] must send 'text' or 'user_assistant_pairs', not both`);
    if (raw.text !== undefined && raw.text !== null && typeof raw.text !== "string") throw invalidInput(`memories[${i}].text must be a string`);
    const pairs = hasPairs ? pairsOf(i, raw.user_assistant_pairs) : null;
    const expiry = raw.expiry_time;
    if (expiry !== undefined && expiry !== null && !(Number.isInteger(expiry) && (expiry as number) > 0 && (expiry as number) <= MAX_EXPIRY_SECONDS)) {
      throw invalidInput(`memories[${i}].expiry_time must be a positive integer number of seconds, at most ${MAX_EXPIRY_SECONDS}`);
    }
    for (const key of ["infer", "is_markdown"] as const) {
      if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== "boolean") throw invalidInput(`memories[${i}].${key} must be a boolean`);
    }
    for (const key of ["id", "source_id", "title", "custom_instructions", "user_name", "timestamp", "created_at"] as const) {
      if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== "string") throw invalidInput(`memories[${i}].${key} must be a string`);
    }
    const timestamp = memoryTimestamp(i, raw);
    if (raw.additional_metadata !== undefined && raw.additional_metadata !== null && !isPlainObject(raw.additional_metadata)) {
      throw invalidInput(`memories[${i}].additional_metadata must be an object`);
    }
    const draft = blankDraft(itemIdOf(`memories[${i}]`, raw) ?? randomUUID(), "memory", "memory");
    draft.title = optString(raw.title) ?? draft.sourceId;
    draft.type = "memory";
    draft.metadata = memoryMetadata(i, raw.metadata);
    draft.additional = isPlainObject(raw.additional_metadata) ? raw.additional_metadata : {};
    draft.relationIds = decodeRelationIds(`memories[${i}].relations`, raw.relations);
    draft.infer = raw.infer === true;
    draft.customInstructions = optString(raw.custom_instructions);
    draft.userName = optString(raw.user_name);
    draft.expirySeconds = typeof expiry === "number" ? expiry : null;
    draft.timestamp = timestamp;
    draft.content = JSON.stringify({ text: hasText ? raw.text : null, user_assistant_pairs: pairs, is_markdown: raw.is_markdown === true });
    return { ok: true, draft };
  });
}
