/**
 * The two data sets of bench:peers, as texts (vectors are attached once, by bench/peers/vectors.ts):
 * LoCoMo as memories (one corpus per conversation, exactly as bench:retrieval loads it) and the
 * knowledge set (Markdown documentation files from node_modules, see bench/data/knowledge-questions.json),
 * chunked for the peers by the service's own parser and chunker with its default sizes, so that
 * every system searches the same chunk texts.
 */
import { readFileSync, readdirSync } from "node:fs";
import { chunkDocument } from "../../src/engines/documents/chunk/index.js";
import { parseFile } from "../../src/engines/documents/parse/index.js";
import { loadLocomo } from "../locomo.js";
import type { Corpus, DataSet, Item, Question } from "./types.js";

type Unembedded<T> = Omit<T, "vector" | "embedMs">;
export interface TextCorpus extends Omit<Corpus, "items"> {
  readonly items: Array<Unembedded<Item>>;
}
export interface TextDataSet extends Omit<DataSet, "corpora" | "questions"> {
  readonly corpora: TextCorpus[];
  readonly questions: Array<Unembedded<Question>>;
}

const LOCOMO = new URL("../../../shared/datasets/locomo/locomo10.json", import.meta.url).pathname;
const LOCOMO_CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };

export function locomoTexts(conversations: number): TextDataSet {
  const loaded = loadLocomo(process.env.LOCOMO_PATH ?? LOCOMO, conversations);
  return {
    name: "locomo",
    type: "memory",
    depth: 20,
    corpora: loaded.map((c) => ({
      name: c.collection,
      items: c.memories.map((m) => ({ id: m.id, doc: m.id, text: m.text })),
      source: { kind: "memories", memories: c.memories },
    })),
    questions: loaded.flatMap((c) =>
      c.questions.map((q) => ({ text: q.question, corpus: c.collection, category: LOCOMO_CATEGORIES[q.category] ?? `c${q.category}`, evidence: q.evidence })),
    ),
  };
}

interface KnowledgeFile {
  sources: Array<{ dir: string; prefix: string }>;
  questions: Array<{ q: string; evidence: string[]; two_docs?: boolean }>;
}

const KNOWLEDGE = new URL("../data/knowledge-questions.json", import.meta.url).pathname;
const NODE_MODULES = new URL("../../node_modules/", import.meta.url).pathname;

export async function knowledgeTexts(): Promise<TextDataSet> {
  const spec = JSON.parse(readFileSync(KNOWLEDGE, "utf8")) as KnowledgeFile;
  const files = spec.sources.flatMap((s) =>
    readdirSync(`${NODE_MODULES}${s.dir}`)
      .filter((f) => f.endsWith(".md") && f !== "Index.md")
      .sort()
      .map((f) => ({ id: `${s.prefix}${f}`, name: f, text: readFileSync(`${NODE_MODULES}${s.dir}/${f}`, "utf8") })),
  );
  const items: Array<Unembedded<Item>> = [];
  for (const file of files) {
    const parsed = await parseFile(new TextEncoder().encode(file.text), file.name, "text/markdown");
    if (!parsed.ok) throw new Error(`${file.id}: ${parsed.message}`);
    for (const chunk of chunkDocument(parsed.document)) items.push({ id: `${file.id}#${chunk.position}`, doc: file.id, text: chunk.text });
  }
  return {
    name: "knowledge",
    type: "knowledge",
    depth: 50,
    corpora: [{ name: "knowledge", items, source: { kind: "files", files } }],
    questions: spec.questions.map((q) => ({ text: q.q, corpus: "knowledge", category: q.two_docs === true ? "two-doc" : "one-doc", evidence: q.evidence })),
  };
}
