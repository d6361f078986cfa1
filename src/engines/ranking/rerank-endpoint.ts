import { postJson, type ChatModelConfig } from "../extraction/chat-client.js";

// Client for a rerank endpoint as Cohere, Jina, vLLM, Infinity and llama.cpp's server expose it:
// POST {base}/v1/rerank {model, query, documents, top_n} answers {results: [{index, relevance_score}]}.
// Every failure comes back as a value: the query then keeps its offline order.

export type ScoresResult = { readonly ok: true; readonly scores: number[] } | { readonly ok: false; readonly reason: string };

interface Ranked {
  readonly index: number;
  readonly score: number;
}

function rankedOf(body: unknown): Ranked[] | undefined {
  // Cohere-style {results: [...]}; a bare array is how Hugging Face's TEI answers.
  const list: unknown = Array.isArray(body) ? body : typeof body === "object" && body !== null && "results" in body ? body.results : undefined;
  if (!Array.isArray(list)) return undefined;
  const out: Ranked[] = [];
  for (const entry of list as unknown[]) {
    if (typeof entry !== "object" || entry === null) return undefined;
    const fields = entry as Record<string, unknown>;
    const index = fields.index;
    const score = fields.relevance_score ?? fields.score;
    if (typeof index !== "number" || typeof score !== "number" || !Number.isFinite(score)) return undefined;
    out.push({ index, score });
  }
  return out;
}

/** The endpoint's scores in the documents' order; a document it left out gets the lowest score it gave. */
export async function rerankWithEndpoint(config: ChatModelConfig, query: string, documents: readonly string[]): Promise<ScoresResult> {
  const reply = await postJson(config, "/rerank", { model: config.model, query, documents, top_n: documents.length });
  if (!reply.ok) return reply;
  const ranked = rankedOf(reply.body);
  if (ranked === undefined || ranked.length === 0) return { ok: false, reason: "no_results" };
  if (ranked.some((r) => !Number.isInteger(r.index) || r.index < 0 || r.index >= documents.length)) return { ok: false, reason: "index_out_of_range" };
  const lowest = Math.min(...ranked.map((r) => r.score));
  const scores = documents.map(() => lowest);
  for (const r of ranked) scores[r.index] = r.score;
  return { ok: true, scores };
}
