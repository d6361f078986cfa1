import { randomUUID } from "node:crypto";
import { APP_ITEM_KINDS } from "./app-item-types.js";
import type { AppItemKind, AppItemValidation, NormalizedAppItem } from "./app-item-types.js";
import { readAcl, readAttachments, readComments, readRelations, referenceId } from "./item-parts.js";
import { AppItemInputError, firstString, isObject, optionalObject, optionalString, requiredString } from "./json-reader.js";
import type { JsonObject } from "./json-reader.js";
import { normalizeTimestamp } from "./normalize-timestamp.js";
import { dedupeParticipants, participantsOfFields } from "./participants.js";

/** Where each kind keeps its main text, in order of preference. */
const BODY_FIELDS: Record<AppItemKind, readonly string[]> = {
  email: ["body", "text", "snippet"],
  message: ["text", "body"],
  ticket: ["body", "description"],
  knowledge_base: ["body", "content", "text"],
  comment: ["body", "text"],
  custom: ["body", "text", "content"],
};

const TITLE_FIELDS = ["subject", "title", "name"] as const;
const THREAD_FIELDS = ["thread_id", "thread_ts", "threadId", "conversation_id"] as const;
const PARENT_FIELDS = ["parent_id", "parent", "issue_id", "ticket_id", "page_id"] as const;

function isKind(value: string): value is AppItemKind {
  return (APP_ITEM_KINDS as readonly string[]).includes(value);
}

function readTimestamp(obj: JsonObject, key: string, path: string): string | null {
  const raw = obj[key];
  if (raw === undefined || raw === null || raw === "") return null;
  const iso = normalizeTimestamp(raw);
  if (iso === undefined) throw new AppItemInputError(`${path}.${key}`, "is not a valid date");
  return iso;
}

function derivedTitle(body: string, fallback: string): string {
  const line =
    body
      .split("\n")
      .find((l) => l.trim().length > 0)
      ?.trim() ?? "";
  if (line.length === 0) return fallback;
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Fields shared by both shapes. */
function readCommon(raw: JsonObject, path: string) {
  const createdAt = readTimestamp(raw, "created_at", path);
  const updatedAt = readTimestamp(raw, "updated_at", path);
  const timestamp = readTimestamp(raw, "timestamp", path);
  return {
    description: optionalString(raw, "description", path) ?? null,
    url: optionalString(raw, "url", path) ?? null,
    collection: optionalString(raw, "collection", path) ?? null,
    createdAt,
    updatedAt,
    timestamp,
    metadata: optionalObject(raw, "metadata", path) ?? {},
    additionalMetadata: optionalObject(raw, "additional_metadata", path) ?? {},
    acl: readAcl(raw, path),
    relations: readRelations(raw, path),
    attachments: readAttachments(raw, path),
    comments: readComments(raw, path),
  };
}

/**
 * The id an item names itself by: `id`, or `source_id` (the vendor's name); both with different
 * values is malformed. Undefined: none given, or blank (the vendor's CLI sends `""` to have one minted).
 */
function givenId(raw: JsonObject, path: string): string | undefined {
  const id = optionalString(raw, "id", path)?.trim() || undefined;
  const sourceId = optionalString(raw, "source_id", path)?.trim() || undefined;
  if (id !== undefined && sourceId !== undefined && id !== sourceId) {
    throw new AppItemInputError(path, "has 'id' and 'source_id' with different values; send one of them");
  }
  return id ?? sourceId;
}

/** What a simple item without `type` is: text sent for the knowledge store, as the vendor's CLI sends it. */
const DEFAULT_SIMPLE_TYPE = "document";

function normalizeSimple(raw: JsonObject, path: string): NormalizedAppItem {
  const id = givenId(raw, path) ?? randomUUID();
  const type = optionalString(raw, "type", path)?.trim() || DEFAULT_SIMPLE_TYPE;
  const content = optionalObject(raw, "content", path);
  if (content === undefined) throw new AppItemInputError(`${path}.content`, "is required and must be an object with text");
  const body = requiredString(content, "text", `${path}.content`);
  const common = readCommon(raw, path);
  const givenTitle = optionalString(raw, "title", path);
  const kind: AppItemKind = isKind(type) ? type : "custom";
  return {
    id,
    shape: "simple",
    kind,
    type,
    provider: optionalString(raw, "provider", path) ?? null,
    externalId: null,
    title: givenTitle ?? derivedTitle(body, id),
    titleGiven: givenTitle !== undefined,
    body,
    ...common,
    timestamp: common.timestamp ?? common.updatedAt ?? common.createdAt,
    threadId: null,
    parentId: null,
    participants: dedupeParticipants([...participantsOfFields(kind, {}, body), ...common.comments.flatMap((c) => (c.author ? [c.author] : []))]),
    fields: {},
  };
}

function normalizeRich(raw: JsonObject, path: string): NormalizedAppItem {
  const kindValue = requiredString(raw, "kind", path);
  if (!isKind(kindValue)) throw new AppItemInputError(`${path}.kind`, `must be one of ${APP_ITEM_KINDS.join(", ")}`);
  const kind = kindValue;
  const provider = (optionalString(raw, "provider", path) ?? "custom").toLowerCase();
  const externalId = requiredString(raw, "external_id", path);
  const fields = optionalObject(raw, "fields", path) ?? {};
  const content = optionalObject(raw, "content", path);
  const body = firstString(fields, BODY_FIELDS[kind]) ?? (content === undefined ? undefined : firstString(content, ["text"])) ?? "";
  const id = givenId(raw, path) ?? `${provider}:${kind}:${externalId}`;
  const givenTitle = optionalString(raw, "title", path) ?? firstString(fields, TITLE_FIELDS);
  if (givenTitle === undefined && body.trim().length === 0) {
    throw new AppItemInputError(path, `has no text: set title or fields.${BODY_FIELDS[kind][0] ?? "body"}`);
  }
  const common = readCommon(raw, path);
  // Providers often keep the item's own dates inside fields (email `date`, Slack `ts`).
  const fieldTime = normalizeTimestamp(fields.date ?? fields.ts ?? fields.created_at) ?? null;
  const threadId = firstString(fields, THREAD_FIELDS) ?? null;
  const parentKey = PARENT_FIELDS.find((k) => fields[k] !== undefined && fields[k] !== null);
  const parentId = parentKey === undefined ? null : (referenceId(fields[parentKey], provider) ?? null);
  const commenters = common.comments.flatMap((c) => (c.author ? [c.author] : []));
  return {
    id,
    shape: "rich",
    kind,
    type: kind,
    provider,
    externalId,
    title: givenTitle ?? derivedTitle(body, id),
    titleGiven: givenTitle !== undefined,
    body,
    ...common,
    createdAt: common.createdAt ?? fieldTime,
    timestamp: common.timestamp ?? common.updatedAt ?? common.createdAt ?? fieldTime,
    threadId,
    parentId,
    participants: dedupeParticipants([...participantsOfFields(kind, fields, body), ...commenters]),
    fields,
  };
}

/**
 * Validates and normalizes one `app_knowledge` entry. Items with `kind` are the rich shape, all
 * others the simple shape. Never throws; `index` only labels messages (`app_knowledge[3].kind ...`).
 */
export function validateAppItem(value: unknown, index = 0): AppItemValidation {
  const path = `app_knowledge[${index}]`;
  try {
    if (!isObject(value)) throw new AppItemInputError(path, "must be an object");
    const item = value.kind !== undefined ? normalizeRich(value, path) : normalizeSimple(value, path);
    return { ok: true, item };
  } catch (error) {
    if (error instanceof AppItemInputError) return { ok: false, code: "INVALID_INPUT", message: error.message };
    return { ok: false, code: "INVALID_INPUT", message: `${path} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Validates each entry on its own, so one malformed item does not reject its neighbours. */
export function validateAppItems(values: readonly unknown[]): AppItemValidation[] {
  return values.map((v, i) => validateAppItem(v, i));
}
