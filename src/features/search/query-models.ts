import type { ChatModelSettings, QueryModelSettings } from "../../platform/config.js";
import type { Logger } from "../../platform/logger.js";
import { chatModelConfig } from "../../engines/extraction/chat-client.js";
import { chatRelevanceScores, expansionTerms } from "../../engines/ranking/chat-query-steps.js";
import type { ScoresResult } from "../../engines/ranking/rerank-endpoint.js";
import type { Reranker } from "../../engines/ranking/create-reranker.js";

/**
 * What thinking-mode queries may ask of configured models: words to look for beside the
 * question's (a chat model) and relevance scores for the first candidates (a reranker, or else
 * the chat model). With none configured, or when a call fails or runs out of time, the
 * query keeps its offline ranking.
 */
export interface QueryModels {
  /** How many of the first candidates a rerank scores (0: no reranker). */
  readonly rerankDepth: number;
  /** Words or phrases a model suggests for the question; [] without a model or on failure. */
  expand(question: string): Promise<readonly string[]>;
  /** One relevance score per passage, in order; null without a model or on failure. */
  rerank(question: string, passages: readonly string[]): Promise<readonly number[] | null>;
}

export const NO_QUERY_MODELS: QueryModels = { rerankDepth: 0, expand: () => Promise.resolve([]), rerank: () => Promise.resolve(null) };

// A chat model reads each passage in its prompt, so it is given the first 20.
const CHAT_DEPTH = 20;

type Outcome = (step: "expand" | "rerank", outcome: "ok" | "failed") => void;

export function createQueryModels(
  chat: ChatModelSettings | null,
  reranker: Reranker | null,
  settings: QueryModelSettings,
  logger: Logger,
  outcome: Outcome,
): QueryModels {
  const chatConfig = chat && chatModelConfig(chat, settings.timeoutMs);
  const failed = (step: "expand" | "rerank", reason: string): void => {
    outcome(step, "failed");
    logger.warn({ step, reason }, "a query model call failed; the query keeps its offline ranking");
  };
  const rerankCall: ((question: string, passages: readonly string[]) => Promise<ScoresResult>) | null = reranker
    ? (question, passages) => reranker.score(question, passages)
    : chatConfig && settings.chatSteps.has("rerank")
      ? (question, passages) => chatRelevanceScores(chatConfig, question, passages)
      : null;
  return {
    rerankDepth: reranker ? reranker.depth : rerankCall ? CHAT_DEPTH : 0,
    async expand(question) {
      if (!chatConfig || !settings.chatSteps.has("expand")) return [];
      const result = await expansionTerms(chatConfig, question);
      if (!result.ok) {
        failed("expand", result.reason);
        return [];
      }
      outcome("expand", "ok");
      return result.terms;
    },
    async rerank(question, passages) {
      if (!rerankCall || passages.length === 0) return null;
      const result = await rerankCall(question, passages);
      if (!result.ok) {
        failed("rerank", result.reason);
        return null;
      }
      outcome("rerank", "ok");
      return result.scores;
    },
  };
}

// How much of a reranked candidate's place the model decides; the rest is the offline fused
// score, so a model's near-ties keep the offline order.
const MODEL_WEIGHT = 0.7;

const minMax = (values: readonly number[]): number[] => {
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo;
  return values.map((v) => (span > 1e-12 ? (v - lo) / span : 1));
};

/**
 * The first `modelScores.length` items reordered by the model's scores blended with their own
 * (each min-max normalised over those items), ahead of the rest, which keep their order. Scores
 * stay comparable: the reordered items score between the best score and twice it.
 */
export function withModelScores<T extends { readonly score: number }>(items: readonly T[], modelScores: readonly number[]): T[] {
  const head = items.slice(0, modelScores.length);
  if (head.length === 0) return [...items];
  const top = Math.max(...head.map((i) => i.score), Number.EPSILON);
  const own = minMax(head.map((i) => i.score));
  const model = minMax(modelScores.slice(0, head.length));
  const reordered = head
    .map((item, i) => ({ ...item, score: top * (1 + MODEL_WEIGHT * model[i]! + (1 - MODEL_WEIGHT) * own[i]!) }))
    .sort((a, b) => b.score - a.score);
  return [...reordered, ...items.slice(head.length)];
}
