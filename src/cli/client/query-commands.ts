// `query <text>` (ranked chunks with their sources, graph context and additional context) and
// `feedback <request-id>` on a query's answer.
import type { Command } from "commander";
import type { ApiClient } from "../../client/api-client.js";
import type { paths } from "../../client/api-types.js";
import {
  clientContext,
  jsonArgument,
  jsonObject,
  oneOf,
  positiveInteger,
  requireDatabase,
  scopeOf,
  snippet,
  withConnectionOptions,
  type OutputOf,
} from "./client-context.js";
import { UsageError } from "../output.js";

interface QueryOptions {
  type?: "knowledge" | "memory" | "all";
  mode?: "fast" | "thinking";
  queryBy?: "hybrid" | "text";
  operator?: "or" | "and" | "phrase";
  maxResults?: number;
  alpha?: number | "auto";
  recencyBias?: number;
  forceful?: boolean;
  acl?: string[];
  graphContext: boolean;
  apps: boolean;
  filters?: string;
  full: boolean;
}

type QueryBody = paths["/query"]["post"]["requestBody"]["content"]["application/json"];
type QueryData = Awaited<ReturnType<typeof runQuery>>["data"];

async function runQuery(api: ApiClient, body: QueryBody) {
  return api.callWithRequestId(api.raw.POST("/query", { body }));
}

/** A weight from 0 to 1 (the body's recency_bias and alpha); `or` names what else the flag takes. */
function weight(flag: string, or = ""): (value: string) => number {
  return (value) => {
    const n = value.trim() === "" ? Number.NaN : Number(value);
    if (!(n >= 0 && n <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1${or}, not '${value}'`);
    return n;
  };
}

/** --alpha: a weight, or `auto` (chosen per query). */
const alpha = (value: string): number | "auto" => (value === "auto" ? "auto" : weight("--alpha", " or auto")(value));

/** Comma-separated principals (the body's acl). */
function principals(value: string): string[] {
  const list = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (list.length === 0) throw new UsageError("--acl must name at least one principal");
  return list;
}

function chunkLines(data: QueryData, full: boolean): string[] {
  const width = full ? Number.MAX_SAFE_INTEGER : 240;
  return data.chunks.map((c, i) => {
    const title = c.source_title || c.source_id;
    const text = c.type === "memory" && c.inferred_content ? c.inferred_content : c.chunk_content;
    return `${i + 1}. [${c.relevancy_score.toFixed(3)}] ${title} (${c.type} ${c.source_id})\n   ${full ? text : snippet(text, width)}`;
  });
}

function graphLines(data: QueryData): string[] {
  const graph = data.graph_context;
  if (!graph) return [];
  const triplets = [...graph.query_paths, ...graph.chunk_relations].flatMap((p) => p.triplets);
  if (triplets.length === 0) return [];
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const t of triplets) {
    const line = `  ${t.source.name} -[${t.relation.canonical_predicate}]-> ${t.target.name}`;
    if (!seen.has(line)) lines.push(line);
    seen.add(line);
  }
  return ["", `graph context (${lines.length} relation(s)):`, ...lines.slice(0, 20), ...(lines.length > 20 ? [`  … ${lines.length - 20} more`] : [])];
}

function additionalLines(data: QueryData): string[] {
  const extra = Object.values(data.additional_context);
  if (extra.length === 0) return [];
  return ["", `additional context (${extra.length} chunk(s)):`, ...extra.map((c) => `  ${c.source_title || c.source_id}: ${snippet(c.chunk_content, 160)}`)];
}

function queryText(data: QueryData, requestId: string, full: boolean): string {
  const head = data.chunks.length === 0 ? ["no results"] : chunkLines(data, full);
  const sources = data.sources.length === 0 ? [] : ["", "sources:", ...data.sources.map((s) => `  ${s.id}\t${s.title}`)];
  return [...head, ...sources, ...graphLines(data), ...additionalLines(data), "", `request id: ${requestId} (for feedback)`].join("\n");
}

export function registerQueryCommands(program: Command, outputOf: OutputOf): void {
  withConnectionOptions(
    program
      .command("query")
      .description("search knowledge and/or memory; prints ranked chunks, sources, graph and additional context")
      .argument("<text>", "what to search for")
      .option("--type <type>", "knowledge, memory or all", oneOf("--type", ["knowledge", "memory", "all"] as const))
      .option("--mode <mode>", "fast or thinking (expansion, reranking, forceful relations)", oneOf("--mode", ["fast", "thinking"] as const))
      .option("--query-by <how>", "hybrid (semantic and keyword) or text (keyword)", oneOf("--query-by", ["hybrid", "text"] as const))
      .option("--operator <op>", "how keywords combine: or, and, phrase", oneOf("--operator", ["or", "and", "phrase"] as const))
      .option("--max-results <n>", "how many chunks (the body's max_results)", positiveInteger("--max-results"))
      .option("--alpha <weight>", "semantic weight in hybrid search, 0 (keywords) to 1 (meaning), or auto", alpha)
      .option("--recency-bias <weight>", "0 to 1: how much newer items rank higher", weight("--recency-bias"))
      .option("--forceful", "also follow forceful relations (query_forceful_relations)")
      .option("--acl <principals>", "the caller's principals, comma-separated: items whose acl names none of them are hidden", principals)
      .option("--no-graph-context", "leave out graph context")
      .option("--apps", "include data synced by connectors (query_apps)", false)
      .option("--filters <json>", "metadata_filters: a JSON object, or @file")
      .option("--full", "print whole chunks instead of snippets", false),
  ).action(async (text: string, options: QueryOptions, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const body: QueryBody = {
      ...scopeOf(settings),
      query: text,
      graph_context: options.graphContext,
      query_apps: options.apps,
      ...(options.type ? { type: options.type } : {}),
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.queryBy ? { query_by: options.queryBy } : {}),
      ...(options.operator ? { operator: options.operator } : {}),
      ...(options.maxResults ? { max_results: options.maxResults } : {}),
      ...(options.alpha !== undefined ? { alpha: options.alpha } : {}),
      ...(options.recencyBias !== undefined ? { recency_bias: options.recencyBias } : {}),
      ...(options.forceful ? { query_forceful_relations: true } : {}),
      ...(options.acl ? { acl: options.acl } : {}),
      ...(options.filters ? { metadata_filters: jsonObject("--filters", await jsonArgument("--filters", options.filters)) } : {}),
    };
    const { data, requestId } = await runQuery(api, body);
    output.emit(queryText(data, requestId, options.full), { ...data, request_id: requestId });
  });

  withConnectionOptions(
    program
      .command("feedback")
      .description("record how a query performed (the request id is printed by `query`)")
      .argument("<request-id>", "the query's request id")
      .argument("[text]", "the feedback")
      .option("--rating <rating>", "positive, negative or neutral", oneOf("--rating", ["positive", "negative", "neutral"] as const))
      .option("--source <source>", "user (default) or agent", oneOf("--source", ["user", "agent"] as const))
      .option("--answer <text>", "ground truth: the right answer")
      .option("--source-ids <ids>", "ground truth: comma-separated ids of the right sources")
      .option("--metadata <json>", "free-form metadata: a JSON object, or @file"),
  ).action(
    async (
      requestId: string,
      text: string | undefined,
      options: { rating?: "positive" | "negative" | "neutral"; source?: "user" | "agent"; answer?: string; sourceIds?: string; metadata?: string },
      command: Command,
    ) => {
      const { api, settings, output } = clientContext(command, outputOf);
      const sourceIds = options.sourceIds
        ?.split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      const groundTruth =
        options.answer !== undefined || sourceIds !== undefined ? { ground_truth: { answer: options.answer ?? null, source_ids: sourceIds ?? null } } : {};
      const body = {
        request_id: requestId,
        database: requireDatabase(settings),
        ...(settings.collection !== null ? { collection: settings.collection } : {}),
        ...(text !== undefined ? { feedback: text } : {}),
        ...(options.rating ? { rating: options.rating } : {}),
        ...(options.source ? { source: options.source } : {}),
        ...groundTruth,
        ...(options.metadata ? { metadata: jsonObject("--metadata", await jsonArgument("--metadata", options.metadata)) } : {}),
      };
      const recorded = await api.call(api.raw.POST("/feedback", { body }));
      output.emit(`feedback ${recorded.feedback_id} recorded for ${recorded.request_id}`, recorded);
    },
  );
}
