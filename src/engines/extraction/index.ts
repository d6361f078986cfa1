// Public surface of offline entity and relation extraction. Pure functions and small classes:
// no HTTP server, no database. The ingestion pipeline wires them in.

export { isRelatableKind } from "./mention.js";
export type { Mention, MentionKind } from "./mention.js";
export { extractEntities } from "./extract-entities.js";
export type { EntityExtraction, ExtractEntitiesContext } from "./extract-entities.js";
export { ExtractionPool } from "./extraction-pool.js";
export { extractRelations, COOCCURRENCE_CONFIDENCE } from "./extract-relations.js";
export type { RelationOptions } from "./extract-relations.js";
export { extractStructuralRelations } from "./structural-relations.js";
export type { AppItem, AppPerson } from "./app-item.js";
export { createEntityResolver } from "./entity-resolver.js";
export type { EntityMerge, EntityResolver, PersonIdentity } from "./entity-resolver.js";
export { InMemoryAliasTable } from "./alias-table.js";
export type { AliasKey, AliasTable, StoredPerson } from "./alias-table.js";
export { entityIdFor, relationshipIdFor, scopeKey } from "./stable-id.js";
export type { GraphEntity, GraphRelation, RelationTriplet } from "./graph-types.js";
export { normalizeHandle, normalizeName, normalizeUrl } from "./normalize-name.js";
export { resolveDateExpression, normalizeClockTime } from "./resolve-date.js";
export { parseReferenceTime } from "./reference-time.js";
export { createLlmRelationExtractor } from "./llm-relation-extractor.js";
export type { LlmRelationExtractor } from "./llm-relation-extractor.js";
export { inferMemory } from "./memory-rules.js";
export { createLlmMemoryInferrer } from "./llm-memory-inferrer.js";
export { chatModelConfig } from "./chat-client.js";
