// Reading and removing stored items by id: `list`, `inspect`, `status`, `delete`.
import { z } from "zod";
import { readStatuses, statusLine } from "./indexing-status.js";
import { clip, scopeArguments, scopeOf } from "./tool-scope.js";
import { defineTool } from "./tool-definition.js";

const corpus = z.enum(["knowledge", "memory"]).default("knowledge").describe("knowledge (default) or memory: which corpus the ids belong to.");
const ids = z.array(z.string().min(1)).min(1).max(1000).describe("Item ids, as ingest, list or query (source_id) returned them.");

const listInput = z.strictObject({
  type: corpus,
  page: z.number().int().min(1).default(1).describe("Page number, from 1."),
  page_size: z.number().int().min(1).max(100).default(20).describe("Items per page (1 to 100)."),
  ids: z.array(z.string().min(1)).optional().describe("Only these ids."),
  ...scopeArguments,
});

export const listTool = defineTool({
  name: "list",
  title: "List stored items",
  description: "List the items stored in a database and collection (knowledge or memory), newest first, one page at a time, with their ids and titles.",
  input: listInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = scopeOf(args, defaults);
    const data = await api.call(
      api.raw.POST("/context/list", {
        body: { ...scope, type: args.type, page: args.page, page_size: args.page_size, ...(args.ids !== undefined ? { ids: args.ids } : {}) },
      }),
    );
    const items =
      args.type === "memory"
        ? (data.user_memories ?? []).map((m) => ({ id: m.id, title: m.title, timestamp: m.timestamp, content: m.memory_content, inferred: m.inferred_content }))
        : (data.sources ?? []).map((s) => ({ id: s.id, title: s.title ?? "", type: s.type ?? "", timestamp: s.timestamp ?? null, app_kind: s.app_kind }));
    const { pagination } = data;
    const lines = [`${data.total} ${args.type} items; page ${pagination.page} of ${pagination.total_pages}${pagination.has_next ? " (more: next page)" : ""}`];
    for (const item of items) lines.push(`- ${item.id}: ${clip(item.title || ("content" in item ? item.content : ""), 120)}`);
    return { text: lines.join("\n"), structured: { type: args.type, items, total: data.total, pagination } };
  },
});

const inspectInput = z.strictObject({
  id: z.string().min(1).describe("The item's id."),
  type: corpus,
  max_chars: z.number().int().min(100).max(200_000).default(20_000).describe("Cut the content after this many characters."),
  ...scopeArguments,
});

export const inspectTool = defineTool({
  name: "inspect",
  title: "Read one stored item",
  description: "Read one item by id: its title, indexing status, metadata and original text content (or a signed download URL for a binary file).",
  input: inspectInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = scopeOf(args, defaults);
    const d = await api.call(api.raw.GET("/context/inspect", { params: { query: { ...scope, id: args.id, type: args.type, mode: "auto" } } }));
    const content = d.memory_content ?? d.content;
    const structured = {
      id: d.id,
      type: d.source_type,
      title: d.title,
      item_type: d.type,
      indexing_status: d.indexing_status,
      chunk_count: d.chunk_count,
      collection: d.collection,
      timestamp: d.timestamp,
      metadata: d.metadata,
      additional_metadata: d.additional_metadata,
      relations: d.relations,
      content: content === null ? null : clip(content, args.max_chars),
      ...(d.inferred_content ? { inferred_content: d.inferred_content } : {}),
      ...(d.presigned_url !== null ? { url: d.presigned_url } : {}),
    };
    const lines = [`${d.id}: ${d.title || "(untitled)"} (${d.source_type}, ${d.type}, ${d.indexing_status}, ${d.chunk_count} chunks)`];
    if (d.inferred_content) lines.push(`inferred: ${d.inferred_content}`);
    if (structured.content !== null) lines.push("", structured.content);
    else if (d.presigned_url !== null) lines.push(`download: ${d.presigned_url}`);
    return { text: lines.join("\n"), structured };
  },
});

const statusInput = z.strictObject({
  ids,
  type: z.enum(["knowledge", "memory", "all"]).default("all").describe("Which corpus to look the ids up in; all (default) finds either."),
  ...scopeArguments,
});

export const statusTool = defineTool({
  name: "status",
  title: "Indexing status of items",
  description:
    "Indexing status of items by id: queued -> processing -> graph_creation (searchable) -> completed, or errored with a code. " +
    "An id not found in the collection reads errored / FILE_NOT_FOUND.",
  input: statusInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const statuses = await readStatuses(api, scopeOf(args, defaults), args.type, args.ids);
    return { text: statuses.map(statusLine).join("\n"), structured: { statuses } };
  },
});

const deleteInput = z.strictObject({ ids, type: corpus, ...scopeArguments });

export const deleteTool = defineTool({
  name: "delete",
  title: "Delete stored items",
  description: "Delete knowledge items or memories by id, with their chunks, vectors and graph. Irreversible.",
  input: deleteInput,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = scopeOf(args, defaults);
    const data = await api.call(api.raw.DELETE("/context", { body: { ...scope, type: args.type, ids: args.ids } }));
    const lines = data.results.map((r) => `${r.id}: ${r.deleted ? "deleted" : `not deleted (${r.error_code ?? "ERROR"}: ${r.error ?? "unknown"})`}`);
    return {
      text: [`${data.deleted_count} of ${args.ids.length} deleted`, ...lines].join("\n"),
      structured: { deleted_count: data.deleted_count, results: data.results },
    };
  },
});
