import { completeChat, parseJsonObject, type ChatModelConfig } from "./chat-client.js";
import type { EntityExtraction } from "./extract-entities.js";
import { extractRelations, toTriplets, type RelationOptions } from "./extract-relations.js";
import type { GraphEntity, GraphRelation, RelationTriplet } from "./graph-types.js";
import { isRelatableKind } from "./mention.js";
import { TEXT_PREDICATES, isTextPredicate } from "./predicates.js";
import { relationshipIdFor } from "./stable-id.js";

// Relation extraction through a chat model when one is configured. The model only picks among
// the entities we found and the predicates we allow; anything else in its answer is dropped, and
// any failure (HTTP, timeout, malformed JSON, wrong shape) falls back to the rule-based extractor.

export type LlmOutcome<T> = { readonly method: "llm"; readonly value: T } | { readonly method: "rules"; readonly value: T; readonly fallbackReason: string };

export interface LlmRelationExtractor {
  extract(chunkText: string, entities: EntityExtraction, options: RelationOptions): Promise<LlmOutcome<RelationTriplet[]>>;
}

const SYSTEM_PROMPT = [
  "You extract relations between given entities from a text.",
  `Allowed predicates: ${TEXT_PREDICATES.join(", ")}.`,
  "Use only the entity ids listed. Use related_to only when the text links two entities without saying how.",
  'Answer with one JSON object: {"relations": [{"source": "E1", "target": "E2", "predicate": "works_at",',
  '"raw_predicate": "works at", "confidence": 0.9, "temporal": null, "sentence": "the sentence"}]}.',
  'Answer {"relations": []} when there are none.',
].join(" ");

interface Listed {
  readonly id: string;
  readonly entity: GraphEntity;
  readonly kind: string;
}

function listEntities(entities: EntityExtraction, options: RelationOptions): Listed[] {
  const listed: Listed[] = [];
  const seen = new Set<string>();
  const push = (entity: GraphEntity | undefined, kind: string): void => {
    if (entity === undefined || seen.has(entity.entity_id)) return;
    seen.add(entity.entity_id);
    listed.push({ id: `E${listed.length + 1}`, entity, kind });
  };
  if (options.speaker !== undefined) push(options.resolver.resolvePerson({ ...options.speaker, provider: options.provider }), "speaker (I, me)");
  for (const mention of entities.mentions) {
    if (isRelatableKind(mention.kind)) push(options.resolver.resolveMention(mention, options.provider), mention.kind);
  }
  return listed;
}

function sentenceFor(chunkText: string, claimed: unknown): string {
  if (typeof claimed === "string" && claimed.trim().length > 0 && chunkText.includes(claimed.trim())) return claimed.trim();
  return chunkText.trim().slice(0, 500);
}

/** Turns the model's answer into relations; undefined when the answer has the wrong shape. */
function readAnswer(value: Record<string, unknown>, listed: readonly Listed[], chunkText: string, options: RelationOptions) {
  if (!Array.isArray(value.relations)) return undefined;
  const byId = new Map(listed.map((item) => [item.id, item.entity]));
  const found: { source: GraphEntity; target: GraphEntity; relation: GraphRelation }[] = [];
  for (const raw of value.relations as unknown[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const item = raw as Record<string, unknown>;
    const source = typeof item.source === "string" ? byId.get(item.source) : undefined;
    const target = typeof item.target === "string" ? byId.get(item.target) : undefined;
    const predicate = typeof item.predicate === "string" ? item.predicate : "";
    if (source === undefined || target === undefined || source.entity_id === target.entity_id || !isTextPredicate(predicate)) continue;
    const confidence = typeof item.confidence === "number" && Number.isFinite(item.confidence) ? Math.min(1, Math.max(0, item.confidence)) : 0.7;
    found.push({
      source,
      target,
      relation: {
        canonical_predicate: predicate,
        raw_predicate: typeof item.raw_predicate === "string" ? item.raw_predicate : predicate.replace(/_/g, " "),
        context: sentenceFor(chunkText, item.sentence),
        confidence,
        temporal_details: typeof item.temporal === "string" && item.temporal.length > 0 ? item.temporal : null,
        timestamp: options.timestamp,
        relationship_id: relationshipIdFor(options.chunkId, source.entity_id, predicate, target.entity_id),
        chunk_id: options.chunkId,
        source_entity_id: source.entity_id,
        target_entity_id: target.entity_id,
        synthesized: true,
      },
    });
  }
  return toTriplets(found, options.chunkId);
}

export function createLlmRelationExtractor(config: ChatModelConfig): LlmRelationExtractor {
  return {
    async extract(chunkText, entities, options) {
      const fallback = (reason: string): LlmOutcome<RelationTriplet[]> => ({
        method: "rules",
        value: extractRelations(chunkText, entities, options),
        fallbackReason: reason,
      });
      const listed = listEntities(entities, options);
      // Fewer than two entities cannot hold a relation; no need to spend a model call.
      if (listed.length < 2) return { method: "llm", value: [] };
      const user = JSON.stringify({ text: chunkText, entities: listed.map((item) => ({ id: item.id, name: item.entity.name, kind: item.kind })) });
      const answer = await completeChat(config, [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: user },
      ]);
      if (!answer.ok) return fallback(answer.reason);
      const parsed = parseJsonObject(answer.content);
      if (!parsed.ok) return fallback(parsed.reason);
      const triplets = readAnswer(parsed.value, listed, chunkText, options);
      return triplets === undefined ? fallback("invalid_shape") : { method: "llm", value: triplets };
    },
  };
}
