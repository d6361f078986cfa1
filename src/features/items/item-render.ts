import { validateAppItem } from "../../engines/documents/app-items/index.js";
import type { ItemRow } from "./store.js";

/** Optional knowledge row fields a list may select with `include_fields`. */
export const KNOWLEDGE_FIELDS = ["title", "type", "description", "note", "timestamp", "metadata", "additional_metadata", "relations"] as const;
export type KnowledgeField = (typeof KNOWLEDGE_FIELDS)[number];

interface StoredMemory {
  text: string | null;
  user_assistant_pairs: Array<{ user: string; assistant: string }> | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const parseObject = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

/** The always-present keys of a row: ids, scope and its legacy mirrors. */
function scopeOf(item: ItemRow, database: string): Record<string, unknown> {
  return { database, collection: item.collection, tenant_id: database, sub_tenant_id: item.collection };
}

/** A knowledge list row; `fields` null selects every optional field. */
export function knowledgeRow(item: ItemRow, database: string, fields: ReadonlySet<KnowledgeField> | null): Record<string, unknown> {
  const all: Record<KnowledgeField, unknown> = {
    title: item.title,
    type: item.type,
    description: item.description,
    note: item.note,
    timestamp: iso(item.item_timestamp),
    metadata: parseObject(item.metadata),
    additional_metadata: parseObject(item.additional_metadata),
    relations: parseObject(item.relations),
  };
  const row: Record<string, unknown> = { id: item.source_id, ...scopeOf(item, database) };
  for (const f of KNOWLEDGE_FIELDS) if (fields === null || fields.has(f)) row[f] = all[f];
  row.app_kind = item.app_kind;
  row.app_provider = item.app_provider;
  row.app_external_id = item.app_external_id;
  row.comments_truncated = false;
  return row;
}

/** The text of a memory as it was sent: its text, or its user/assistant pairs one per line. */
export function memoryText(item: ItemRow): string {
  const m = JSON.parse(item.content ?? "{}") as StoredMemory;
  if (m.user_assistant_pairs) return m.user_assistant_pairs.map((p) => `User: ${p.user}\nAssistant: ${p.assistant}`).join("\n");
  return m.text ?? "";
}

/** A `user_memories[]` row. */
export function memoryRow(item: ItemRow, database: string): Record<string, unknown> {
  return {
    memory_id: item.source_id,
    memory_content: memoryText(item),
    inferred_content: item.inferred_content ?? "",
    id: item.source_id,
    ...scopeOf(item, database),
    title: item.title,
    timestamp: iso(item.item_timestamp),
    metadata: parseObject(item.metadata),
    additional_metadata: parseObject(item.additional_metadata),
    relations: parseObject(item.relations),
    expires_at: iso(item.expires_at),
  };
}

/** Body and author of an app item as sent (null for items that are not app items). */
export function appItemText(item: ItemRow): { text: string; author: string | null } | null {
  if (item.origin !== "app" || item.content === null) return null;
  const v = validateAppItem(JSON.parse(item.content));
  if (!v.ok) return null;
  const author = v.item.participants.find((p) => p.role === "author" || p.role === "sender" || p.role === "commenter");
  return { text: v.item.body, author: author?.display ?? null };
}

/** A folded comment or message under its thread root. */
export function commentRow(item: ItemRow): Record<string, unknown> {
  const body = appItemText(item);
  return {
    id: item.source_id,
    title: item.title,
    app_kind: item.app_kind,
    app_provider: item.app_provider,
    app_external_id: item.app_external_id,
    timestamp: iso(item.item_timestamp),
    text: body?.text ?? null,
    author: body?.author ?? null,
  };
}
