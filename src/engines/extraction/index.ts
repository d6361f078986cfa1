// Public surface of offline entity and relation extraction. Pure functions and small classes:
// no HTTP server, no database. The ingestion pipeline wires them in.

export { MENTION_KINDS, isRelatableKind, isTemporalKind } from "./mention.js";
export type { Mention, MentionKind, Span } from "./mention.js";
export { extractEntities } from "./extract-entities.js";
export type { EntityExtraction, ExtractEntitiesContext } from "./extract-entities.js";
export { extractRelations, COOCCURRENCE_CONFIDENCE } from "./extract-relations.js";
export type { RelationOptions } from "./extract-relations.js";
export { extractStructuralRelations } from "./structural-relations.js";
export type { StructuralOptions } from "./structural-relations.js";
export type { AppAttachment, AppComment, AppItem, AppItemKind, AppPerson, AppPersonRef } from "./app-item.js";
export { ScopedEntityResolver, createEntityResolver } from "./entity-resolver.js";
export type { EntityMerge, EntityResolver, PersonIdentity } from "./entity-resolver.js";
export { InMemoryAliasTable } from "./alias-table.js";
export type { AliasKey, AliasTable, StoredPerson } from "./alias-table.js";
export { entityIdFor, relationshipIdFor, scopeKey } from "./stable-id.js";
export type { ResolutionScope } from "./stable-id.js";
export type { EntityNamespace, EntityType, GraphEntity, GraphRelation, RelationTriplet } from "./graph-types.js";
export { STRUCTURAL_PREDICATES, TEXT_PREDICATES, isTextPredicate } from "./predicates.js";
export type { CanonicalPredicate, StructuralPredicate, TextPredicate } from "./predicates.js";
export { normalizeEmail, normalizeHandle, normalizeName, normalizeUrl } from "./normalize-name.js";
export { resolveDateExpression, normalizeClockTime } from "./resolve-date.js";
export { parseReferenceTime } from "./reference-time.js";
export type { ReferenceTimeInput } from "./reference-time.js";
export { createLlmRelationExtractor } from "./llm-relation-extractor.js";
export type { LlmOutcome, LlmRelationExtractor } from "./llm-relation-extractor.js";
export { inferMemory } from "./memory-rules.js";
export type { InferMemoryOptions, InferredMemory, InferredStatement, MemoryKind, UserAssistantPair } from "./memory-rules.js";
export { createLlmMemoryInferrer } from "./llm-memory-inferrer.js";
export type { LlmMemoryInferrer } from "./llm-memory-inferrer.js";
export type { ChatModelConfig } from "./chat-client.js";
