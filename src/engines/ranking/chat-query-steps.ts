import { completeChat, parseJsonObject, type ChatModelConfig } from "../extraction/chat-client.js";
import type { ScoresResult } from "./rerank-endpoint.js";

// Thinking mode's two steps for a configured chat model: words to look for beside the question's
// own (query expansion), and a relevance score for each candidate passage (reranking).

export type TermsResult = { readonly ok: true; readonly terms: string[] } | { readonly ok: false; readonly reason: string };

const MAX_TERMS = 16;
const PASSAGE_CHARS = 700;

const EXPAND_PROMPT = [
  "You expand questions for a search engine over a team's documents and people's conversation memories.",
  "Given a question, list up to 12 words or short phrases that a passage answering it is likely to contain",
  "and the question itself does not: the members of a category it names (activities, places, foods, tools),",
  "synonyms, and closely related things. Do not answer the question.",
  'Reply with JSON only: {"terms": ["...", "..."]}.',
].join(" ");

const RERANK_PROMPT = [
  "You judge search results. For each numbered passage, rate how well it helps answer the question,",
  "from 0 (unrelated) to 10 (answers it or holds a needed part of the answer).",
  'Reply with JSON only: {"scores": [s0, s1, ...]}, one number per passage, in the passages\' order.',
].join(" ");

export async function expansionTerms(config: ChatModelConfig, question: string): Promise<TermsResult> {
  const reply = await completeChat(config, [
    { role: "system", content: EXPAND_PROMPT },
    { role: "user", content: question },
  ]);
  if (!reply.ok) return reply;
  const parsed = parseJsonObject(reply.content);
  if (!parsed.ok) return parsed;
  const terms = parsed.value.terms;
  if (!Array.isArray(terms)) return { ok: false, reason: "no_terms" };
  return {
    ok: true,
    terms: terms
      .filter((t): t is string => typeof t === "string")
      .map((t) => t.trim())
      .filter((t) => t.length > 0)
      .slice(0, MAX_TERMS),
  };
}

export async function chatRelevanceScores(config: ChatModelConfig, question: string, passages: readonly string[]): Promise<ScoresResult> {
  const listed = passages.map((p, i) => `[${i}] ${p.length > PASSAGE_CHARS ? `${p.slice(0, PASSAGE_CHARS)}...` : p}`).join("\n");
  const reply = await completeChat(config, [
    { role: "system", content: RERANK_PROMPT },
    { role: "user", content: `Question: ${question}\n\nPassages:\n${listed}` },
  ]);
  if (!reply.ok) return reply;
  const parsed = parseJsonObject(reply.content);
  if (!parsed.ok) return parsed;
  const scores = parsed.value.scores;
  if (!Array.isArray(scores) || scores.length !== passages.length) return { ok: false, reason: "scores_not_one_per_passage" };
  if (!scores.every((s): s is number => typeof s === "number" && Number.isFinite(s))) return { ok: false, reason: "scores_not_numbers" };
  return { ok: true, scores };
}
