import type { AppItemRelation, NormalizedAttachment, NormalizedComment, RelationTarget } from "./app-item-types.js";
import { AppItemInputError, firstString, isObject, optionalArray, optionalString, requiredString } from "./json-reader.js";
import type { JsonObject } from "./json-reader.js";
import { normalizeTimestamp } from "./normalize-timestamp.js";
import { participantsFrom } from "./participants.js";

/** Relations come as the rich `[{predicate, target}]` list or the simple `{ids: [...]}` form. */
export function readRelations(item: JsonObject, path: string): AppItemRelation[] {
  const raw = item.relations;
  if (raw === undefined || raw === null) return [];
  if (isObject(raw)) {
    const ids = optionalArray(raw, "ids", `${path}.relations`) ?? [];
    return ids.map((id, i) => {
      if (typeof id !== "string" || id.length === 0) throw new AppItemInputError(`${path}.relations.ids[${i}]`, "must be a non-empty string");
      return { predicate: "related_to", target: { type: "id", id } };
    });
  }
  if (!Array.isArray(raw)) throw new AppItemInputError(`${path}.relations`, "must be an array of {predicate, target} or an object {ids}");
  return raw.map((entry, i) => {
    const at = `${path}.relations[${i}]`;
    if (!isObject(entry)) throw new AppItemInputError(at, "must be an object");
    const predicate = requiredString(entry, "predicate", at);
    const target = entry.target;
    if (!isObject(target)) throw new AppItemInputError(`${at}.target`, "must be an object {id} or {provider, external_id}");
    return { predicate, target: readTarget(target, `${at}.target`) };
  });
}

function readTarget(target: JsonObject, path: string): RelationTarget {
  const id = optionalString(target, "id", path);
  if (id !== undefined && id.length > 0) return { type: "id", id };
  const provider = optionalString(target, "provider", path);
  const externalId = optionalString(target, "external_id", path);
  if (provider === undefined || externalId === undefined || provider.length === 0 || externalId.length === 0) {
    throw new AppItemInputError(path, "needs either id or both provider and external_id");
  }
  const kind = optionalString(target, "kind", path);
  return kind === undefined
    ? { type: "external", provider, externalId }
    : { type: "external", provider, externalId, kind, id: `${provider}:${kind}:${externalId}` };
}

export function readAttachments(item: JsonObject, path: string): NormalizedAttachment[] {
  return (optionalArray(item, "attachments", path) ?? []).map((entry, i) => {
    const at = `${path}.attachments[${i}]`;
    if (!isObject(entry)) throw new AppItemInputError(at, "must be an object");
    const name = optionalString(entry, "name", at) ?? optionalString(entry, "filename", at) ?? `attachment ${i + 1}`;
    const text = firstString(entry, ["text", "content"]);
    const mimeType = optionalString(entry, "mime_type", at);
    const url = optionalString(entry, "url", at);
    if (text === undefined && url === undefined) throw new AppItemInputError(at, "needs text/content or url");
    return { name, ...(text === undefined ? {} : { text }), ...(mimeType === undefined ? {} : { mimeType }), ...(url === undefined ? {} : { url }) };
  });
}

export function readComments(item: JsonObject, path: string): NormalizedComment[] {
  return (optionalArray(item, "comments", path) ?? []).map((entry, i) => {
    const at = `${path}.comments[${i}]`;
    if (!isObject(entry)) throw new AppItemInputError(at, "must be an object");
    const body = firstString(entry, ["body", "text", "content"]);
    if (body === undefined) throw new AppItemInputError(`${at}.body`, "is required and must be a non-empty string");
    const id = optionalString(entry, "id", at);
    const author = participantsFrom("commenter", entry.author ?? entry.user)[0];
    const rawDate = entry.created_at ?? entry.timestamp;
    const createdAt = normalizeTimestamp(rawDate);
    if (rawDate !== undefined && rawDate !== null && createdAt === undefined) throw new AppItemInputError(`${at}.created_at`, "is not a valid date");
    return { body, ...(id === undefined ? {} : { id }), ...(author === undefined ? {} : { author }), ...(createdAt === undefined ? {} : { createdAt }) };
  });
}

export function readAcl(item: JsonObject, path: string): string[] | null {
  const raw = item.acl;
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "string")
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  if (Array.isArray(raw) && raw.every((p): p is string => typeof p === "string")) return raw;
  throw new AppItemInputError(`${path}.acl`, "must be an array of principal strings");
}

/** A reference to another item (`parent`): a string id, or an object with id / external_id. */
export function referenceId(value: unknown, provider: string | null): string | undefined {
  if (typeof value === "string" && value.length > 0) return value;
  if (typeof value === "number") return String(value);
  if (!isObject(value)) return undefined;
  const id = firstString(value, ["id"]);
  if (id !== undefined) return id;
  const externalId = firstString(value, ["external_id"]);
  const kind = firstString(value, ["kind"]);
  const targetProvider = firstString(value, ["provider"]) ?? provider;
  if (externalId !== undefined && kind !== undefined && targetProvider !== null) return `${targetProvider}:${kind}:${externalId}`;
  return externalId;
}
