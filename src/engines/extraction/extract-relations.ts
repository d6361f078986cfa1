import type { EntityResolver, PersonIdentity } from "./entity-resolver.js";
import type { EntityExtraction } from "./extract-entities.js";
import type { GraphEntity, GraphRelation, RelationTriplet } from "./graph-types.js";
import { isRelatableKind, isTemporalKind, type Mention, type Span } from "./mention.js";
import type { TextPredicate } from "./predicates.js";
import { matchRule } from "./relation-rules.js";
import { splitSentences } from "./sentence-split.js";
import { relationshipIdFor } from "./stable-id.js";

// Chunk-level relations between entities mentioned in the same sentence. A rule over the words
// between two mentions gives a typed predicate; pairs no rule explains become `related_to`
// (co-occurrence) with low confidence, nearest pairs first and capped per sentence.

export interface RelationOptions {
  readonly chunkId: string;
  /** ISO 8601 time stamped on every relation (the item's time), injected for reproducibility. */
  readonly timestamp: string;
  readonly resolver: EntityResolver;
  readonly provider?: string;
  /** Who "I" and "me" are: a conversation turn's speaker or a message's sender. */
  readonly speaker?: PersonIdentity;
  /** Co-occurrence relations kept per sentence (default 6). */
  readonly maxCooccurrencePerSentence?: number;
}

export const COOCCURRENCE_CONFIDENCE = 0.3;
/** Longer gaps rarely hold one verb phrase linking the two ends. */
const MAX_BETWEEN_WORDS = 12;

interface Participant {
  readonly mention: Mention;
  readonly entity: GraphEntity;
}

interface Candidate {
  readonly source: GraphEntity;
  readonly target: GraphEntity;
  readonly predicate: TextPredicate;
  readonly raw: string;
  readonly confidence: number;
  readonly sentence: string;
  readonly temporal: string | null;
}

const FIRST_PERSON = /\b(?:I|me)\b(?:['’](?:m|ve|ll|d))?/g;

function speakerMentions(sentence: string, offset: number, existing: readonly Mention[]): Mention[] {
  const found: Mention[] = [];
  for (const match of sentence.matchAll(FIRST_PERSON)) {
    const span = { start: offset + match.index, end: offset + match.index + match[0].length };
    if (existing.some((mention) => mention.span.start < span.end && span.start < mention.span.end)) continue;
    found.push({ kind: "person", surface: match[0], span, key: "", via: "speaker" });
  }
  return found;
}

function temporalDetails(mentions: readonly Mention[]): string | null {
  const parts = mentions
    .filter((mention) => isTemporalKind(mention.kind))
    .map((mention) => (mention.resolved !== undefined && mention.resolved !== mention.surface ? `${mention.surface} (${mention.resolved})` : mention.surface));
  return parts.length === 0 ? null : parts.join("; ");
}

/** Text between two mentions, lowercased with typographic quotes folded; undefined when too long. */
function betweenText(text: string, left: Span, right: Span): string | undefined {
  const between = text.slice(left.end, right.start).toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
  return between.split(" ").length > MAX_BETWEEN_WORDS ? undefined : between;
}

/**
 * With another mention in between, only a coordinated tail can still belong to the left mention:
 * "Ada works at Acme and lives in Paris" gives Ada lives_in Paris from "and lives in".
 */
function phraseFor(text: string, left: Participant, right: Participant, inside: readonly Participant[]): { between: string; penalty: number } | undefined {
  const middle = inside.filter((p) => p.mention.span.start >= left.mention.span.end && p.mention.span.end <= right.mention.span.start);
  if (middle.length === 0) {
    const between = betweenText(text, left.mention.span, right.mention.span);
    return between === undefined ? undefined : { between, penalty: 0 };
  }
  const last = middle[middle.length - 1];
  if (last === undefined) return undefined;
  const tail = betweenText(text, last.mention.span, right.mention.span);
  const coordinated = tail === undefined ? null : /^,?\s*(?:and|but|then|, then)\s+(.+)$/.exec(tail);
  if (coordinated === null || middle.some((p) => p.mention.kind === left.mention.kind)) return undefined;
  return { between: coordinated[1] ?? "", penalty: 0.1 };
}

function resolveParticipant(mention: Mention, options: RelationOptions): GraphEntity | undefined {
  if (mention.via === "speaker")
    return options.speaker === undefined ? undefined : options.resolver.resolvePerson({ ...options.speaker, provider: options.provider });
  return options.resolver.resolveMention(mention, options.provider);
}

function sentenceCandidates(text: string, span: Span, mentions: readonly Mention[], options: RelationOptions): Candidate[] {
  const sentence = text.slice(span.start, span.end).trim();
  const inside = mentions.filter((m) => m.span.start >= span.start && m.span.end <= span.end);
  const all = options.speaker === undefined ? inside : [...inside, ...speakerMentions(text.slice(span.start, span.end), span.start, inside)];
  all.sort((a, b) => a.span.start - b.span.start);
  const participants: Participant[] = [];
  for (const mention of all) {
    if (!isRelatableKind(mention.kind)) continue;
    const entity = resolveParticipant(mention, options);
    if (entity !== undefined) participants.push({ mention, entity });
  }
  const temporal = temporalDetails(inside);
  const typed: Candidate[] = [];
  const loose: { candidate: Candidate; distance: number }[] = [];
  for (let i = 0; i < participants.length; i += 1) {
    for (let j = i + 1; j < participants.length; j += 1) {
      const left = participants[i];
      const right = participants[j];
      if (left === undefined || right === undefined || left.entity.entity_id === right.entity.entity_id) continue;
      const phrase = phraseFor(text, left, right, participants);
      const match = phrase === undefined ? undefined : matchRule(phrase.between, sentence, left.mention.kind, right.mention.kind);
      if (phrase !== undefined && match !== undefined) {
        const [source, target] = match.rule.inverse === true ? [right, left] : [left, right];
        // Each word beyond four between the mentions makes a shared verb phrase less likely.
        const words = phrase.between.length === 0 ? 0 : phrase.between.split(" ").length;
        const confidence = Math.max(0.4, match.rule.confidence - phrase.penalty - 0.03 * Math.max(0, words - 4));
        typed.push({ source: source.entity, target: target.entity, predicate: match.rule.predicate, raw: match.phrase, confidence, sentence, temporal });
        continue;
      }
      const distance = right.mention.span.start - left.mention.span.end;
      loose.push({
        candidate: { source: left.entity, target: right.entity, predicate: "related_to", raw: "", confidence: COOCCURRENCE_CONFIDENCE, sentence, temporal },
        distance,
      });
    }
  }
  const linked = new Set(typed.map((c) => [c.source.entity_id, c.target.entity_id].sort().join("|")));
  const cap = options.maxCooccurrencePerSentence ?? 6;
  const cooccurring = loose
    .filter(({ candidate }) => !linked.has([candidate.source.entity_id, candidate.target.entity_id].sort().join("|")))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, cap)
    .map(({ candidate }) => candidate);
  return [...typed, ...cooccurring];
}

function toRelation(candidate: Candidate, options: RelationOptions): GraphRelation {
  return {
    canonical_predicate: candidate.predicate,
    raw_predicate: candidate.raw,
    context: candidate.sentence,
    confidence: Math.round(candidate.confidence * 100) / 100,
    temporal_details: candidate.temporal,
    timestamp: options.timestamp,
    relationship_id: relationshipIdFor(options.chunkId, candidate.source.entity_id, candidate.predicate, candidate.target.entity_id),
    chunk_id: options.chunkId,
    source_entity_id: candidate.source.entity_id,
    target_entity_id: candidate.target.entity_id,
  };
}

/** Groups relations by (source, target), keeping the most confident per predicate, in text order. */
export function toTriplets(relations: readonly { source: GraphEntity; target: GraphEntity; relation: GraphRelation }[], chunkId: string): RelationTriplet[] {
  const byPair = new Map<string, { source: GraphEntity; target: GraphEntity; relations: Map<string, GraphRelation> }>();
  for (const { source, target, relation } of relations) {
    const pairKey = `${source.entity_id}>${target.entity_id}`;
    const group = byPair.get(pairKey) ?? { source, target, relations: new Map<string, GraphRelation>() };
    const previous = group.relations.get(relation.canonical_predicate);
    if (previous === undefined || previous.confidence < relation.confidence) group.relations.set(relation.canonical_predicate, relation);
    byPair.set(pairKey, group);
  }
  return [...byPair.values()].map((group) => ({ source: group.source, target: group.target, relations: [...group.relations.values()], chunk_id: chunkId }));
}

export function extractRelations(chunkText: string, entities: EntityExtraction | readonly Mention[], options: RelationOptions): RelationTriplet[] {
  const mentions = "mentions" in entities ? entities.mentions : entities;
  const sentences = "sentences" in entities ? entities.sentences : splitSentences(chunkText);
  const found: { source: GraphEntity; target: GraphEntity; relation: GraphRelation }[] = [];
  for (const sentence of sentences) {
    for (const candidate of sentenceCandidates(chunkText, sentence, mentions, options)) {
      found.push({ source: candidate.source, target: candidate.target, relation: toRelation(candidate, options) });
    }
  }
  return toTriplets(found, options.chunkId);
}
