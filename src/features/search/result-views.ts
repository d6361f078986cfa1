import type { Hydrated } from "./hydrate.js";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const obj = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

/** One chunk of the query response (the SDK's V2Chunk plus our scope and position fields). */
export function chunkView(h: Hydrated, score: number): Record<string, unknown> {
  const { chunk, item } = h;
  const relations = obj(item.relations) as { ids?: string[] };
  return {
    chunk_uuid: chunk.chunk_uuid,
    id: item.source_id,
    source_id: item.source_id,
    chunk_content: chunk.content,
    source_type: item.type,
    source_title: item.title,
    source_upload_time: iso(item.created_at),
    source_last_updated_time: iso(item.updated_at),
    layout: null,
    relevancy_score: Math.round(score * 1e6) / 1e6,
    metadata: obj(item.metadata),
    additional_metadata: obj(item.additional_metadata),
    extra_context_ids: relations.ids ?? [],
    type: item.corpus,
    collection: item.collection,
    position: chunk.position,
    section_path: JSON.parse(chunk.section_path) as string[],
    page: chunk.page,
    timestamp: iso(item.item_timestamp),
    app_kind: item.app_kind,
    app_provider: item.app_provider,
    app_external_id: item.app_external_id,
    thread_id: item.thread_id,
    ...(item.corpus === "memory" ? { inferred_content: item.inferred_content ?? "", user_name: item.user_name } : {}),
  };
}

/** A cited source: deduplicated per item. */
export function sourceView(h: Hydrated): Record<string, unknown> {
  const { item } = h;
  return {
    id: item.source_id,
    title: item.title,
    type: item.type,
    description: item.description ?? "",
    url: item.url ?? "",
    timestamp: iso(item.item_timestamp),
    metadata: obj(item.metadata),
    additional_metadata: obj(item.additional_metadata),
    app_kind: item.app_kind,
    app_provider: item.app_provider,
    app_external_id: item.app_external_id,
    collection: item.collection,
    corpus: item.corpus,
  };
}
