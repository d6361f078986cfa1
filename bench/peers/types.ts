/** The shapes every system of bench:peers shares: the data sets, the questions and one small interface. */
import type { Memory } from "../locomo.js";

/** One searchable unit: a LoCoMo turn, or a chunk of a knowledge document. */
export interface Item {
  readonly id: string;
  /** What recall counts: the turn id, or the document id of a chunk. */
  readonly doc: string;
  readonly text: string;
  readonly vector: Float32Array;
}

/** What the service ingests itself: memories, or whole Markdown files (it chunks them). */
export type Source =
  { readonly kind: "memories"; readonly memories: Memory[] } | { readonly kind: "files"; readonly files: Array<{ id: string; name: string; text: string }> };

/** One isolated candidate set: a LoCoMo conversation, or the knowledge set. Each system gets one table/index per corpus. */
export interface Corpus {
  readonly name: string;
  readonly items: Item[];
  readonly source: Source;
}

export interface Question {
  readonly text: string;
  readonly vector: Float32Array;
  readonly corpus: string;
  readonly category: string;
  readonly evidence: string[];
  /** Our encoder's time for this question alone, measured once; added to every peer's search time. */
  readonly embedMs: number;
}

export interface DataSet {
  readonly name: "locomo" | "knowledge";
  readonly type: "memory" | "knowledge";
  readonly corpora: Corpus[];
  readonly questions: Question[];
  /** Results asked of every system per question (documents are deduplicated afterwards). */
  readonly depth: number;
}

/** A system under test: it indexes the corpora, then answers each question in each of its modes. */
export interface PeerSystem {
  /** One table row per mode. */
  readonly modes: readonly string[];
  /** True when the system embeds the question inside its search call (the service): its time already includes the embedding. */
  readonly embedsQueries: boolean;
  index(data: DataSet): Promise<void>;
  /** Waits for work that goes on after the index is searchable (our graph extraction), so that queries do not compete with it; says how long it took. */
  settle?(): Promise<string>;
  /** Document ids (turn ids for LoCoMo), best first, possibly repeated (several chunks of one document). */
  search(mode: string, question: Question, depth: number): Promise<string[]>;
  close(): Promise<void>;
}
