// `ingest`: a note, a document or conversation turns, as memory or as knowledge, through
// POST /context/ingest, optionally waiting (within a bound) until the item is indexed.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ApiClient } from "../client/api-client.js";
import { statusLine, waitForStatuses, type IndexingStatus } from "./indexing-status.js";
import { scopeArguments, scopeOf, type ToolScope } from "./tool-scope.js";
import { defineTool, type ProgressReporter, type ToolOutput } from "./tool-definition.js";

type Kind = "note" | "document" | "conversation";

/** The kind asked for, or the one the other arguments imply: turns make a conversation, knowledge text a document, memory text a note. */
function kindOf(args: { kind?: Kind | undefined; type: "memory" | "knowledge"; turns?: unknown }): Kind {
  return args.kind ?? (args.turns !== undefined ? "conversation" : args.type === "knowledge" ? "document" : "note");
}

const turn = z.strictObject({ user: z.string().describe("What the user said."), assistant: z.string().describe("What the assistant answered.") });

const ingestInput = z
  .strictObject({
    kind: z
      .enum(["note", "document", "conversation"])
      .optional()
      .describe(
        "note: a short text or fact; document: a longer text or Markdown file; conversation: user/assistant turns (pass `turns`). " +
          "Default: conversation when turns are given, else document for knowledge and note for memory.",
      ),
    type: z
      .enum(["memory", "knowledge"])
      .default("memory")
      .describe("memory (default): per-user context (preferences, facts, history), best with a collection per user; knowledge: shared reference content."),
    text: z.string().min(1).optional().describe("The content, for a note or a document (Markdown welcome)."),
    turns: z.array(turn).min(1).optional().describe("The conversation, for kind conversation."),
    title: z.string().min(1).optional().describe("A display title."),
    id: z
      .string()
      .min(1)
      .optional()
      .describe("A stable id of your choice; ingesting the same id again replaces the item. Generated when omitted (the result carries it)."),
    file_name: z
      .string()
      .min(1)
      .optional()
      .describe("For a knowledge document: the file name whose extension selects the parser (.md, .txt, .csv); default document.md."),
    infer: z.boolean().optional().describe("Memory only: true lets the service extract the underlying preference, trait or fact."),
    metadata: z.record(z.string(), z.unknown()).optional().describe("Free-form key-values stored with the item (its additional_metadata)."),
    wait: z.boolean().default(false).describe("true: answer only once the item is indexed (or wait_seconds passed); otherwise use the status tool."),
    wait_seconds: z.number().int().min(1).max(300).default(60).describe("How long wait may take at most."),
    ...scopeArguments,
  })
  .superRefine((args, ctx) => {
    const kind = kindOf(args);
    if (kind === "conversation") {
      if (args.turns === undefined) ctx.addIssue({ code: "custom", path: ["turns"], message: "a conversation needs turns" });
      if (args.text !== undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "send turns, not text, for a conversation" });
    } else {
      if (args.text === undefined) ctx.addIssue({ code: "custom", path: ["text"], message: `a ${kind} needs text (or turns, for a conversation)` });
      if (args.turns !== undefined) ctx.addIssue({ code: "custom", path: ["turns"], message: "turns are for kind conversation" });
    }
    if (args.infer !== undefined && args.type !== "memory") ctx.addIssue({ code: "custom", path: ["infer"], message: "infer applies to memory only" });
    if (args.file_name !== undefined && !(kind === "document" && args.type === "knowledge")) {
      ctx.addIssue({ code: "custom", path: ["file_name"], message: "file_name applies to a knowledge document only" });
    }
  });

type IngestArgs = z.output<typeof ingestInput>;

/** The indexing pipeline's stages in order; an item's progress is the index of the stage it reached. */
const STAGES = ["queued", "processing", "graph_creation", "completed"] as const;
const FINAL_STAGE = STAGES.length - 1;

/**
 * Reports each stage the item reaches while the call waits, once (MCP requires every
 * notification's progress to be larger than the last): queued 0, processing 1, graph_creation
 * (searchable) 2, of 3. The end (completed or errored) is the call's result and no notification:
 * the SDK's client handles a notification a microtask after it arrives, and a response read in
 * the same chunk ends the call first, so a last notification right before the result is dropped.
 */
function stageReporter(report: ProgressReporter): (statuses: readonly IndexingStatus[]) => Promise<void> {
  let reached = -1;
  return async ([status]) => {
    const stage = STAGES.indexOf((status?.indexing_status ?? "") as (typeof STAGES)[number]);
    if (stage < 0 || stage === FINAL_STAGE || stage <= reached) return;
    reached = stage;
    await report(stage, FINAL_STAGE, stage === 2 ? "graph_creation (searchable)" : STAGES[stage]!);
  };
}

interface IngestRow {
  readonly id: string;
  readonly status: string;
  readonly error_code?: string;
  readonly message?: string;
}

const conversationText = (turns: readonly { user: string; assistant: string }[]): string =>
  turns.map((t) => `User: ${t.user}\nAssistant: ${t.assistant}`).join("\n\n");

function memoryOf(args: IngestArgs): Record<string, unknown> {
  return {
    ...(args.id !== undefined ? { id: args.id } : {}),
    ...(args.title !== undefined ? { title: args.title } : {}),
    ...(args.turns !== undefined ? { user_assistant_pairs: args.turns } : { text: args.text }),
    ...(kindOf(args) === "document" ? { is_markdown: true } : {}),
    ...(args.infer !== undefined ? { infer: args.infer } : {}),
    ...(args.metadata !== undefined ? { additional_metadata: args.metadata } : {}),
  };
}

/** A note or conversation as knowledge: an app item of the simple shape (which requires an id). */
function appItemOf(args: IngestArgs): Record<string, unknown> {
  return {
    id: args.id ?? `${kindOf(args)}-${randomUUID()}`,
    type: kindOf(args),
    ...(args.title !== undefined ? { title: args.title } : {}),
    content: { text: args.turns !== undefined ? conversationText(args.turns) : args.text },
    ...(args.metadata !== undefined ? { additional_metadata: args.metadata } : {}),
  };
}

/** A knowledge document goes up as a file, so the service parses it by format (Markdown sections, CSV rows). */
async function uploadDocument(api: ApiClient, scope: ToolScope, args: IngestArgs): Promise<IngestRow[]> {
  const fileName = args.file_name ?? "document.md";
  const described = { ...(args.id !== undefined ? { id: args.id } : {}), ...(args.title !== undefined ? { title: args.title } : {}) };
  const fields: Record<string, string> = {
    ...scope,
    type: "knowledge",
    document_metadata: JSON.stringify([described]),
    ...(args.metadata !== undefined ? { additional_metadata: JSON.stringify(args.metadata) } : {}),
  };
  const data = await api.call(
    api.raw.POST("/context/ingest", {
      body: { database: scope.database },
      bodySerializer: () => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append("files", new Blob([args.text ?? ""], { type: "text/plain" }), fileName);
        return form;
      },
    }),
  );
  return data.results;
}

async function send(api: ApiClient, scope: ToolScope, args: IngestArgs): Promise<IngestRow[]> {
  if (args.type === "knowledge" && kindOf(args) === "document") return uploadDocument(api, scope, args);
  const body =
    args.type === "memory"
      ? { ...scope, type: "memory" as const, memories: [memoryOf(args)] }
      : { ...scope, type: "knowledge" as const, app_knowledge: [appItemOf(args)] };
  const data = await api.call(api.raw.POST("/context/ingest", { body }));
  return data.results;
}

export const ingestTool = defineTool({
  name: "ingest",
  title: "Store a note, document or conversation",
  description:
    "Store content in the context store as memory (per-user context) or knowledge (shared content). Indexing is asynchronous: pass wait=true " +
    "to answer once it is searchable and complete, or call status with the returned id. The id is what inspect, subgraph, status and delete take.",
  input: ingestInput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (args, { api, defaults, progress }): Promise<ToolOutput> => {
    const scope = scopeOf(args, defaults);
    const rows = await send(api, scope, args);
    const failed = rows.filter((r) => r.status === "failed");
    const row = rows[0];
    if (row === undefined || failed.length === rows.length) {
      const first = failed[0];
      return {
        text: first ? `${first.error_code ?? "INGEST_FAILED"}: ${first.message ?? "the item was refused"}` : "INGEST_FAILED: the service accepted no item",
        structured: { results: rows },
        isError: true,
      };
    }
    const where = { database: scope.database, collection: scope.collection ?? null, type: args.type };
    if (!args.wait) {
      return {
        text: `${row.status}: id ${row.id} (${args.type}${row.status === "duplicate" ? ", already stored" : ""}); call status with this id to follow indexing`,
        structured: { id: row.id, status: row.status, ...where },
      };
    }
    const { statuses, finished } = await waitForStatuses(api, scope, args.type, [row.id], args.wait_seconds * 1000, progress && stageReporter(progress));
    const status = statuses[0];
    const state = status?.indexing_status ?? "unknown";
    const errored = state === "errored" || state === "failed";
    const text = errored
      ? `${status?.error_code || "PROCESSING_FAILED"}: ${status?.message ?? "indexing failed"} (id ${row.id} errored)`
      : `${finished ? "" : `still indexing after ${args.wait_seconds} s: `}${status ? statusLine(status) : `${row.id}: ${state}`}`;
    return {
      text,
      structured: {
        id: row.id,
        indexing_status: state,
        finished,
        ...where,
        ...(status?.error_code ? { error_code: status.error_code, message: status.message } : {}),
      },
      isError: errored,
    };
  },
});
