// Retrieval and its judgement: `query` answers ranked chunks with the ids the other tools take,
// `feedback` records how well a query served (by the request id `query` returned).
import { z } from "zod";
import { clip, scopeArguments, scopeOf } from "./tool-scope.js";
import { defineTool } from "./tool-definition.js";

const CHUNK_TEXT_BUDGET = 800;

const queryInput = z.strictObject({
  query: z.string().min(1).describe("What to look for, in natural language or keywords."),
  type: z
    .enum(["knowledge", "memory", "all"])
    .default("all")
    .describe("Which corpus: knowledge (shared documents and notes), memory (per-user context), or all (both, merged and re-ranked)."),
  max_results: z.number().int().min(1).max(100).optional().describe("At most this many chunks (the service's default when omitted)."),
  mode: z.enum(["fast", "thinking"]).optional().describe("thinking adds query expansion, reranking and related items; slower."),
  graph_context: z.boolean().default(false).describe("true adds the entity relations linked to the chunks (subject -predicate-> object)."),
  metadata_filters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Exact-match filters on declared metadata keys; free-form keys under additional_metadata."),
  ...scopeArguments,
});

export const queryTool = defineTool({
  name: "query",
  title: "Search the context store",
  description:
    "Retrieve the passages most relevant to a question from stored knowledge and memories. Returns ranked chunks with their source ids " +
    "(for inspect, subgraph, delete) and a request_id (for feedback).",
  input: queryInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = scopeOf(args, defaults);
    const pending = api.raw.POST("/query", {
      body: {
        ...scope,
        query: args.query,
        type: args.type,
        graph_context: args.graph_context,
        ...(args.max_results !== undefined ? { max_results: args.max_results } : {}),
        ...(args.mode !== undefined ? { mode: args.mode } : {}),
        ...(args.metadata_filters !== undefined ? { metadata_filters: args.metadata_filters } : {}),
      },
    });
    const { data, requestId } = await api.callWithRequestId(pending);
    const chunks = data.chunks.map((c) => ({
      source_id: c.source_id,
      source_title: c.source_title,
      type: c.type,
      collection: c.collection,
      relevancy_score: c.relevancy_score,
      chunk_uuid: c.chunk_uuid,
      chunk_content: c.chunk_content,
      ...(c.inferred_content ? { inferred_content: c.inferred_content } : {}),
    }));
    const sources = data.sources.map((s) => ({ id: s.id, title: s.title, corpus: s.corpus, type: s.type, collection: s.collection }));
    const triplets = (data.graph_context?.query_paths ?? []).flatMap((p) => p.triplets);
    const lines = [`request_id: ${requestId} (pass it to feedback)`, `${chunks.length} chunks from ${sources.length} sources`];
    chunks.forEach((c, i) => {
      lines.push(`${i + 1}. [${c.relevancy_score.toFixed(3)}] ${c.source_title || "(untitled)"} (source_id: ${c.source_id}, ${c.type})`);
      lines.push(`   ${clip(c.chunk_content.replace(/\s+/g, " ").trim(), CHUNK_TEXT_BUDGET)}`);
    });
    if (triplets.length > 0) {
      lines.push("relations:");
      for (const t of triplets.slice(0, 20)) lines.push(`- ${t.source.name} -${t.relation.canonical_predicate}-> ${t.target.name}`);
    }
    return {
      text: lines.join("\n"),
      structured: { request_id: requestId, chunks, sources, ...(data.graph_context ? { graph_context: data.graph_context } : {}) },
    };
  },
});

const feedbackInput = z.strictObject({
  request_id: z.string().uuid().describe("The request_id a query call returned."),
  rating: z.enum(["positive", "negative", "neutral"]).optional().describe("How well the query served."),
  feedback: z.string().max(8000).optional().describe("What was right or wrong; required unless ground_truth carries an answer or source ids."),
  ground_truth: z
    .strictObject({
      answer: z.string().optional().describe("The correct answer."),
      source_ids: z.array(z.string()).optional().describe("Ids of the items that should have been found."),
    })
    .optional()
    .describe("What the query should have returned."),
  source: z.enum(["user", "agent"]).default("agent").describe("Who judges: the agent itself (default) or the user it relays."),
  ...scopeArguments,
});

export const feedbackTool = defineTool({
  name: "feedback",
  title: "Rate a query",
  description:
    "Record how well a query call served, by its request_id: a rating, a comment and/or the ground truth. Feedback is stored for evaluation; it never changes results.",
  input: feedbackInput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const database = args.database ?? defaults.database;
    const collection = args.collection ?? defaults.collection;
    const data = await api.call(
      api.raw.POST("/feedback", {
        body: {
          request_id: args.request_id,
          source: args.source,
          ...(args.rating !== undefined ? { rating: args.rating } : {}),
          ...(args.feedback !== undefined ? { feedback: args.feedback } : {}),
          ...(args.ground_truth !== undefined ? { ground_truth: args.ground_truth } : {}),
          ...(database !== null ? { database } : {}),
          ...(database !== null && collection !== null ? { collection } : {}),
        },
      }),
    );
    return {
      text: `feedback recorded: feedback_id ${data.feedback_id} for request ${data.request_id}`,
      structured: { feedback_id: data.feedback_id, request_id: data.request_id, recorded: data.recorded, created_at: data.created_at },
    };
  },
});
