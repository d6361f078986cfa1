// What every MCP tool is: a name, a description an agent can act on, a zod input schema (listed as
// JSON Schema, checked before the tool runs) and a function that calls the public API.
import { z } from "zod";
import { ApiError, type ApiClient } from "../client/api-client.js";

/** The database and collection a tool uses when its arguments name none. */
export interface McpDefaults {
  readonly database: string | null;
  readonly collection: string | null;
}

/** Reports a long tool call's progress to a client that asked for it (MCP notifications/progress). */
export type ProgressReporter = (progress: number, total: number, message: string) => Promise<void>;

export interface ToolContext {
  readonly api: ApiClient;
  readonly defaults: McpDefaults;
  /** Present when the call carries a progress token. */
  readonly progress?: ProgressReporter;
}

/** A tool's answer: a concise text for the model and the same facts as structured content. */
export interface ToolOutput {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  /** True when the call reached the service but what the tool was asked to do failed (an ingest row failed). */
  readonly isError?: boolean;
}

/** Hints to clients (MCP tool annotations): whether a tool only reads, or may destroy data. */
export interface ToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };
  readonly annotations: ToolHints;
  /** Checks the arguments against the schema (INVALID_INPUT when they do not fit), then runs the tool. */
  run(args: unknown, context: ToolContext): Promise<ToolOutput>;
}

interface ToolSpec<S extends z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  readonly hints: ToolHints;
  readonly handler: (args: z.output<S>, context: ToolContext) => Promise<ToolOutput>;
}

function problemOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`).join("; ");
}

/** A tool from its spec; the schema's types stay inside, so tools of different shapes share one list. */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): McpTool {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(spec.input, { io: "input" });
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: { ...jsonSchema, type: "object" },
    annotations: spec.hints,
    async run(args, context) {
      const parsed = spec.input.safeParse(args ?? {});
      if (!parsed.success) throw new ApiError(0, "INVALID_INPUT", problemOf(parsed.error));
      return spec.handler(parsed.data, context);
    },
  };
}
