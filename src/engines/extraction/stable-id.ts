import { createHash } from "node:crypto";

// Ids are hashes of what identifies the thing, so re-ingesting the same content yields the same
// ids on any machine. 96 bits keeps collisions negligible well past billions of entities.

export interface ResolutionScope {
  readonly database: string;
  /** The corpus inside the database (the interface calls it collection). */
  readonly collection: string;
}

export function scopeKey(scope: ResolutionScope): string {
  return `${scope.database}\u0000${scope.collection}`;
}

export function stableId(prefix: string, ...parts: readonly string[]): string {
  const hash = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return `${prefix}_${hash.slice(0, 24)}`;
}

export function entityIdFor(scope: ResolutionScope, canonicalKey: string): string {
  return stableId("ent", scopeKey(scope), canonicalKey);
}

export function relationshipIdFor(chunkId: string, sourceEntityId: string, predicate: string, targetEntityId: string): string {
  return stableId("rel", chunkId, sourceEntityId, predicate, targetEntityId);
}
