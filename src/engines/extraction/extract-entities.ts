import { analyzeWithCompromise, resolveWithCompromise } from "./compromise-pass.js";
import type { Mention, MentionKind, Span } from "./mention.js";
import { normalizeAmount, normalizeEmail, normalizeHandle, normalizeHashtag, normalizeName, normalizeUrl } from "./normalize-name.js";
import { findKnownNames, findProducts, findTickets } from "./pattern-pass.js";
import { parseReferenceTime, type ReferenceTimeInput } from "./reference-time.js";
import { normalizeClockTime, resolveDateExpression } from "./resolve-date.js";
import { analyzeWithWink, type WinkAnalysis } from "./wink-pass.js";

export interface ExtractEntitiesContext {
  /** "Now" for relative dates: the message's timestamp or a session date ("8 May 2023"). */
  readonly reference?: ReferenceTimeInput;
  /** Read numeric dates day-first (05/03/2024 = 5 March). */
  readonly dayFirst?: boolean;
  /**
   * `fast` skips compromise (no people/places/organisations/products) for ~30x throughput.
   * `query` reads a question for graph context: compromise is skipped too (3-4 ms of a query's
   * CPU) and each run of proper nouns is read as a person's name, for the caller to resolve
   * against the people it has stored (a run that names no one resolves to nothing there).
   */
  readonly mode?: "full" | "fast" | "query";
  /** Names known to be people in this context (speakers, participants); always found. */
  readonly knownPeople?: readonly string[];
}

export interface EntityExtraction {
  readonly mentions: readonly Mention[];
  /** Sentence spans, so relation extraction can reuse them without re-reading the text. */
  readonly sentences: readonly Span[];
}

interface Candidate {
  readonly kind: MentionKind;
  readonly span: Span;
  readonly via: Mention["via"];
  /** Lower wins when two candidates overlap; equal priority keeps the longer span. */
  readonly priority: number;
}

function priorityOf(kind: MentionKind): number {
  switch (kind) {
    case "email":
    case "url":
    case "mention":
    case "hashtag":
      return 0;
    case "ticket":
      return 1;
    case "date":
    case "time":
    case "duration":
    case "money":
    case "percent":
      return 2;
    case "person":
    case "organization":
    case "place":
    case "product":
      return 3;
  }
}

function keyOf(kind: MentionKind, surface: string, resolved: string | undefined): string {
  switch (kind) {
    case "person":
    case "organization":
    case "place":
    case "product":
      return normalizeName(surface);
    case "email":
      return normalizeEmail(surface);
    case "mention":
      return normalizeHandle(surface);
    case "hashtag":
      return normalizeHashtag(surface);
    case "url":
      return normalizeUrl(surface);
    case "ticket":
      return surface.toUpperCase();
    case "date":
      return resolved ?? surface.trim().toLowerCase().replace(/\s+/g, " ");
    case "time":
      return normalizeClockTime(surface) ?? surface.trim().toLowerCase().replace(/\s+/g, " ");
    case "money":
      return normalizeAmount(surface);
    case "duration":
    case "percent":
      return surface.trim().toLowerCase().replace(/\s+/g, " ");
  }
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;
const length = (span: Span): number => span.end - span.start;

/** Keeps the best candidate of every overlapping group; the result is sorted by position. */
function selectCandidates(candidates: Candidate[]): Candidate[] {
  const ranked = [...candidates].sort((a, b) => a.priority - b.priority || length(b.span) - length(a.span) || a.span.start - b.span.start);
  const kept: Candidate[] = [];
  for (const candidate of ranked) {
    if (!kept.some((other) => overlaps(other.span, candidate.span))) kept.push(candidate);
  }
  return kept.sort((a, b) => a.span.start - b.span.start);
}

/** compromise splits "José Núñez" into two people at diacritics; adjacent people are one name. */
function joinAdjacentPeople(text: string, candidates: Candidate[]): Candidate[] {
  const joined: Candidate[] = [];
  for (const candidate of candidates) {
    const previous = joined[joined.length - 1];
    if (
      previous !== undefined &&
      previous.kind === "person" &&
      candidate.kind === "person" &&
      /^ $/.test(text.slice(previous.span.end, candidate.span.start))
    ) {
      joined[joined.length - 1] = { ...previous, span: { start: previous.span.start, end: candidate.span.end } };
    } else {
      joined.push(candidate);
    }
  }
  return joined;
}

/** Runs of adjacent proper nouns ("Ada Lovelace", "John"): a question's candidate names. */
function properNounRuns(text: string, analysis: WinkAnalysis): Span[] {
  const runs: Array<{ start: number; end: number }> = [];
  let open: { start: number; end: number } | undefined;
  for (const token of analysis.tokens) {
    if (token.pos !== "PROPN") {
      open = undefined;
      continue;
    }
    if (open !== undefined && /^ $/.test(text.slice(open.end, token.span.start))) {
      open.end = token.span.end;
    } else {
      open = { start: token.span.start, end: token.span.end };
      runs.push(open);
    }
  }
  return runs;
}

/**
 * The stretches compromise reads: the sentences holding a proper noun, adjacent ones joined.
 * Proper nouns are what compromise adds; the sentences without one cost most of its time and
 * gave it mostly false names (600 LoCoMo memories of 1-6 turns: 8.4 to 3.3 ms a text; what it
 * no longer finds is "grace", "buddy", "mark" and photo captions read as places such as
 * "trail] The", and nothing new).
 */
function namingStretches(analysis: WinkAnalysis): Span[] {
  const stretches: Span[] = [];
  let token = 0;
  for (const sentence of analysis.sentences) {
    while (token < analysis.tokens.length && analysis.tokens[token]!.span.start < sentence.start) token += 1;
    let names = false;
    for (let i = token; i < analysis.tokens.length && analysis.tokens[i]!.span.end <= sentence.end; i++) names ||= analysis.tokens[i]!.pos === "PROPN";
    if (!names) continue;
    const previous = stretches[stretches.length - 1];
    if (previous !== undefined && previous.end >= sentence.start - 1) stretches[stretches.length - 1] = { start: previous.start, end: sentence.end };
    else stretches.push({ start: sentence.start, end: sentence.end });
  }
  return stretches;
}

export function extractEntities(text: string, context: ExtractEntitiesContext = {}): EntityExtraction {
  const analysis = analyzeWithWink(text);
  const reference = parseReferenceTime(context.reference);
  const full = (context.mode ?? "full") === "full";
  const candidates: Candidate[] = analysis.entities.map((entity) => ({
    kind: entity.kind,
    span: entity.span,
    via: "wink",
    priority: priorityOf(entity.kind),
  }));
  for (const found of [...findTickets(text), ...findProducts(text)]) {
    candidates.push({ kind: found.kind, span: found.span, via: "pattern", priority: priorityOf(found.kind) });
  }
  // Known people outrank the tagger so a speaker's name is never re-typed as a place.
  for (const person of findKnownNames(text, context.knownPeople ?? [])) {
    candidates.push({ kind: person.kind, span: person.span, via: "pattern", priority: 1 });
  }
  if (context.mode === "query") {
    for (const span of properNounRuns(text, analysis)) candidates.push({ kind: "person", span, via: "wink", priority: priorityOf("person") });
  }
  for (const stretch of full ? namingStretches(analysis) : []) {
    for (const entity of analyzeWithCompromise(text.slice(stretch.start, stretch.end))) {
      const span = { start: entity.span.start + stretch.start, end: entity.span.end + stretch.start };
      candidates.push({ kind: entity.kind, span, via: "compromise", priority: priorityOf(entity.kind) });
    }
  }
  const selected = joinAdjacentPeople(text, selectCandidates(candidates));
  const mentions = selected.map((candidate): Mention => {
    const surface = text.slice(candidate.span.start, candidate.span.end);
    let resolved: string | undefined;
    if (candidate.kind === "date") {
      resolved = resolveDateExpression(surface, { reference, dayFirst: context.dayFirst });
      // Without a reference compromise would read the system clock, making results time-dependent.
      if (resolved === undefined && full && reference !== undefined) resolved = resolveWithCompromise(surface, reference);
    }
    const mention: Mention = {
      kind: candidate.kind,
      surface,
      span: candidate.span,
      key: keyOf(candidate.kind, surface, resolved),
      via: candidate.via,
    };
    return resolved === undefined ? mention : { ...mention, resolved };
  });
  return { mentions: mentions.filter((mention) => mention.key.length > 0), sentences: analysis.sentences };
}
