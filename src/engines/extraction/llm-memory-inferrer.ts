import { completeChat, parseJsonObject, type ChatModelConfig } from "./chat-client.js";
import type { LlmOutcome } from "./llm-relation-extractor.js";
import { inferMemory, type InferMemoryOptions, type InferredMemory, type InferredStatement, type MemoryKind, type UserAssistantPair } from "./memory-rules.js";

// Memory inference through a chat model when one is configured, honouring the caller's
// custom instructions and user name; falls back to the offline rules on any failure.

export interface LlmMemoryInferrer {
  infer(input: string | readonly UserAssistantPair[], options?: InferMemoryOptions): Promise<LlmOutcome<InferredMemory | null>>;
}

const KINDS: ReadonlySet<string> = new Set<MemoryKind>(["preference", "trait", "plan", "fact"]);

function systemPrompt(options: InferMemoryOptions): string {
  const subject = options.userName?.trim() ? options.userName.trim() : "the user";
  const lines = [
    "You turn what a user said into durable memories: their preferences, traits, plans and facts about them.",
    `Write each memory as one short third-person statement about ${subject}, without a trailing period.`,
    "Ignore greetings, questions and small talk.",
    'Answer with one JSON object: {"memories": [{"kind": "preference" | "trait" | "plan" | "fact", "statement": "...", "evidence": "the words it came from"}]}.',
    'Answer {"memories": []} when nothing is worth remembering.',
  ];
  if (options.customInstructions?.trim()) lines.push(`Follow these instructions from the application: ${options.customInstructions.trim()}`);
  return lines.join(" ");
}

function transcript(input: string | readonly UserAssistantPair[]): string {
  if (typeof input === "string") return input;
  return input.map((pair) => `User: ${pair.user}\nAssistant: ${pair.assistant}`).join("\n\n");
}

function readMemories(value: Record<string, unknown>): InferredMemory | null | undefined {
  if (!Array.isArray(value.memories)) return undefined;
  const statements: InferredStatement[] = [];
  for (const raw of value.memories as unknown[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const item = raw as Record<string, unknown>;
    const statement = typeof item.statement === "string" ? item.statement.trim().replace(/\.$/, "") : "";
    if (statement.length === 0) continue;
    const kind = typeof item.kind === "string" && KINDS.has(item.kind) ? (item.kind as MemoryKind) : "fact";
    statements.push({ kind, statement, evidence: typeof item.evidence === "string" ? item.evidence : "" });
  }
  if (statements.length === 0) return null;
  return { statement: statements.map((item) => item.statement).join(". "), statements };
}

export function createLlmMemoryInferrer(config: ChatModelConfig): LlmMemoryInferrer {
  return {
    async infer(input, options = {}) {
      const fallback = (reason: string): LlmOutcome<InferredMemory | null> => ({ method: "rules", value: inferMemory(input, options), fallbackReason: reason });
      const answer = await completeChat(config, [
        { role: "system", content: systemPrompt(options) },
        { role: "user", content: transcript(input) },
      ]);
      if (!answer.ok) return fallback(answer.reason);
      const parsed = parseJsonObject(answer.content);
      if (!parsed.ok) return fallback(parsed.reason);
      const memory = readMemories(parsed.value);
      return memory === undefined ? fallback("invalid_shape") : { method: "llm", value: memory };
    },
  };
}
