/**
 * The knowledge development set (`../shared/datasets/hotpotqa-train-100`, see its SOURCE.md): 100
 * multi-hop questions over 994 Wikipedia passages. Every passage is one knowledge item whose id is
 * its title; a question's gold items are the distinct titles of its supporting facts.
 */
import { readFileSync } from "node:fs";

export interface Passage {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export interface HotpotQuestion {
  readonly question: string;
  /** HotpotQA's type: bridge (one passage leads to the other) or comparison (two entities compared). */
  readonly type: string;
  readonly level: string;
  readonly gold: readonly string[];
}

const DIR = new URL("../../shared/datasets/hotpotqa-train-100/", import.meta.url).pathname;

export function loadHotpot(dir = process.env.HOTPOT_DIR ?? DIR): { passages: Passage[]; questions: HotpotQuestion[] } {
  const corpus = JSON.parse(readFileSync(`${dir}/hotpotqa_train_corpus.json`, "utf8")) as Record<string, string[]>;
  const raw = JSON.parse(readFileSync(`${dir}/hotpotqa_train.json`, "utf8")) as Array<{
    question: string;
    type: string;
    level: string;
    supporting_facts: Array<[string, number]>;
  }>;
  const passages = Object.entries(corpus)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([title, sentences]) => ({ id: title, title, text: sentences.join("").trim() }));
  const questions = raw.map((q) => ({ question: q.question, type: q.type, level: q.level, gold: [...new Set(q.supporting_facts.map(([t]) => t))] }));
  return { passages, questions };
}
