// Items already ingested: `status <ids...>`, `list`, `inspect <id>`, `delete <ids...>`.
import type { Command } from "commander";
import { clientContext, oneOf, PartialFailure, positiveInteger, scopeOf, snippet, withConnectionOptions, type OutputOf } from "./client-context.js";

type Corpus = "knowledge" | "memory";
const corpusOption = ["--type <type>", "knowledge (default) or memory", oneOf("--type", ["knowledge", "memory"] as const)] as const;

/** A miss (the service answers an unknown id as errored / FILE_NOT_FOUND or MEMORY_NOT_FOUND) or a failed indexing: exit code 1. */
function statusFailure(statuses: ReadonlyArray<{ indexing_status: string; error_code: string }>): void {
  const missing = statuses.filter((s) => s.error_code === "FILE_NOT_FOUND" || s.error_code === "MEMORY_NOT_FOUND").length;
  if (missing > 0) throw new PartialFailure("NOT_FOUND", `${missing} of ${statuses.length} item(s) not found`);
  const errored = statuses.filter((s) => s.indexing_status === "errored" || s.indexing_status === "failed").length;
  if (errored > 0) throw new PartialFailure("INDEXING_FAILED", `${errored} of ${statuses.length} item(s) failed to index`);
}

export function registerItemCommands(program: Command, outputOf: OutputOf): void {
  withConnectionOptions(
    program
      .command("status")
      .description("indexing status of items")
      .argument("<ids...>", "item ids")
      .option(...corpusOption),
  ).action(async (ids: string[], options: { type?: Corpus }, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const query = { ...scopeOf(settings), ids, ...(options.type ? { type: options.type } : {}) };
    const data = await api.call(api.raw.GET("/context/status", { params: { query } }));
    const lines = data.statuses.map((s) => `${s.id}\t${s.indexing_status}${s.error_code ? `\t${s.error_code}: ${s.message}` : ""}`);
    output.emit(lines.join("\n"), data.statuses);
    statusFailure(data.statuses);
  });

  withConnectionOptions(
    program
      .command("list")
      .description("list items, a page at a time")
      .option("--type <type>", "knowledge (default), memory or all", oneOf("--type", ["knowledge", "memory", "all"] as const))
      .option("--page <n>", "the page (from 1)", positiveInteger("--page"), 1)
      .option("--page-size <n>", "items per page (1 to 100)", positiveInteger("--page-size"), 50)
      .option("--fold-threads", "fold each thread's comments and messages under its root (knowledge)", false),
  ).action(async (options: { type?: Corpus | "all"; page: number; pageSize: number; foldThreads: boolean }, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const body = {
      ...scopeOf(settings),
      page: options.page,
      page_size: options.pageSize,
      fold_threads: options.foldThreads,
      ...(options.type ? { type: options.type } : {}),
    };
    const data = await api.call(api.raw.POST("/context/list", { body }));
    const knowledge = (data.sources ?? []).map((s) => {
      const comments = s.comments && s.comments.length > 0 ? `\t(${s.comments.length} comment(s))` : "";
      return `${s.id}\t${s.type ?? ""}\t${s.title ?? ""}${comments}`;
    });
    const memories = (data.user_memories ?? []).map((m) => `${m.memory_id}\tmemory\t${snippet(m.inferred_content || m.memory_content, 80)}`);
    const p = data.pagination;
    const footer = `page ${p.page} of ${p.total_pages} (${p.total} item(s))${p.has_next ? `; next: --page ${p.page + 1}` : ""}`;
    output.emit([...knowledge, ...memories, footer].join("\n"), data);
  });

  withConnectionOptions(
    program
      .command("inspect")
      .description("one item: its fields, indexing status and content")
      .argument("<id>", "the item's id")
      .option(...corpusOption),
  ).action(async (id: string, options: { type?: Corpus }, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const query = { ...scopeOf(settings), id, mode: "content" as const, ...(options.type ? { type: options.type } : {}) };
    const item = await api.call(api.raw.GET("/context/inspect", { params: { query } }));
    const content = item.inferred_content || item.memory_content || item.content;
    const lines = [
      `id:        ${item.id}`,
      `title:     ${item.title}`,
      `type:      ${item.type} (${item.source_type})`,
      `status:    ${item.indexing_status}, ${item.chunk_count} chunk(s)`,
      `collection: ${item.collection}`,
      ...(item.file_name ? [`file:      ${item.file_name}`] : []),
      ...(item.url ? [`url:       ${item.url}`] : []),
      ...(item.timestamp ? [`timestamp: ${item.timestamp}`] : []),
      "",
      content ?? (item.content_base64 !== null ? `(binary content, ${item.size_bytes ?? "?"} bytes; see --json)` : "(no content)"),
    ];
    output.emit(lines.join("\n"), item);
  });

  withConnectionOptions(
    program
      .command("delete")
      .description("delete items by id")
      .argument("<ids...>", "item ids")
      .option(...corpusOption),
  ).action(async (ids: string[], options: { type?: Corpus }, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const body = { ...scopeOf(settings), ids, ...(options.type ? { type: options.type } : {}) };
    const data = await api.call(api.raw.DELETE("/context", { body }));
    const lines = data.results.map((r) => `${r.id}\t${r.deleted ? "deleted" : `not deleted: ${r.error_code ?? ""} ${r.error ?? ""}`.trim()}`);
    output.emit([...lines, `${data.deleted_count} deleted`].join("\n"), data);
    const missed = data.results.filter((r) => !r.deleted).length;
    if (missed > 0) throw new PartialFailure("DELETE_INCOMPLETE", `${missed} of ${data.results.length} item(s) not deleted`);
  });
}
