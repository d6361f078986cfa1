import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import type { ItemEntity, ItemSentence } from "wink-nlp";
import type { MentionKind, Span } from "./mention.js";

// The fast pass: one wink-nlp read gives tokens, sentences, POS tags and the pattern entities
// (emails, URLs, @mentions, #hashtags, dates, times, money...). ~20k short docs/s on one core.

const nlp = winkNLP(model, ["sbd", "negation", "pos", "ner"]);
// wink declares its `its` helpers as methods, but they are plain functions that never use `this`.
// eslint-disable-next-line @typescript-eslint/unbound-method
const { precedingSpaces, pos: partOfSpeech, span: tokenSpan, type: entityType } = nlp.its;

export interface WinkToken {
  readonly text: string;
  readonly span: Span;
  readonly pos: string;
}

export interface WinkEntity {
  readonly kind: MentionKind;
  readonly surface: string;
  readonly span: Span;
}

export interface WinkAnalysis {
  readonly tokens: readonly WinkToken[];
  readonly sentences: readonly Span[];
  readonly entities: readonly WinkEntity[];
}

function kindOf(type: string): MentionKind | undefined {
  switch (type) {
    case "EMAIL":
      return "email";
    case "URL":
      return "url";
    case "MENTION":
      return "mention";
    case "HASHTAG":
      return "hashtag";
    case "DATE":
      return "date";
    case "TIME":
      return "time";
    case "DURATION":
      return "duration";
    case "MONEY":
      return "money";
    case "PERCENT":
      return "percent";
    default:
      // CARDINAL, ORDINAL, EMOJI, EMOTICON carry no entity worth a graph node.
      return undefined;
  }
}

/** wink types `its.span` loosely; at run time it is always a pair of token indices. */
function tokenRange(value: string | readonly number[]): [number, number] {
  if (typeof value === "string") return [0, 0];
  return [value[0] ?? 0, value[1] ?? 0];
}

export function analyzeWithWink(text: string): WinkAnalysis {
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out();
  const spaces = doc.tokens().out(precedingSpaces);
  const pos = doc.tokens().out(partOfSpeech);
  const tokens: WinkToken[] = [];
  // wink keeps every character (doc.out() round-trips), so offsets are a running sum.
  let offset = 0;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] ?? "";
    offset += (spaces[index] ?? "").length;
    tokens.push({ text: value, span: { start: offset, end: offset + value.length }, pos: pos[index] ?? "X" });
    offset += value.length;
  }
  const toChars = (first: number, last: number): Span => ({
    start: tokens[first]?.span.start ?? 0,
    end: tokens[last]?.span.end ?? text.length,
  });
  const sentences: Span[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const [first, last] = tokenRange(sentence.out(tokenSpan));
    sentences.push(toChars(first, last));
  });
  const entities: WinkEntity[] = [];
  doc.entities().each((entity: ItemEntity) => {
    const kind = kindOf(entity.out(entityType));
    if (kind === undefined) return;
    const [first, last] = tokenRange(entity.out(tokenSpan));
    const span = toChars(first, last);
    entities.push({ kind, surface: text.slice(span.start, span.end), span });
  });
  return { tokens, sentences, entities };
}
