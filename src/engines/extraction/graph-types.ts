import type { CanonicalPredicate } from "./predicates.js";

// Wire shapes of the interface's "Relation triplet" (snake_case, as returned by subgraph,
// relations and query graph_context), so results need no mapping before they are stored or sent.

/** `SOURCE` and `ACTOR` are the types the interface shows; the rest are ours for text entities. */
export type EntityType = "SOURCE" | "ACTOR" | "ORGANIZATION" | "PLACE" | "PRODUCT" | "TOPIC" | "REFERENCE";

export type EntityNamespace = "sources" | "actors" | "organizations" | "places" | "products" | "topics" | "references";

export interface GraphEntity {
  readonly name: string;
  readonly type: EntityType;
  readonly namespace: EntityNamespace;
  readonly entity_id: string;
  /** Email or handle for actors, external id for sources, null when nothing better than the name exists. */
  readonly identifier: string | null;
  readonly provider?: string;
}

export interface GraphRelation {
  readonly canonical_predicate: CanonicalPredicate;
  /** The words as written ("is moving to"), or the item field name for structural relations. */
  readonly raw_predicate: string;
  /** The sentence the relation was read from; empty for structural relations. */
  readonly context: string;
  /** 0..1; structural relations are 1. */
  readonly confidence: number;
  readonly temporal_details: string | null;
  /** ISO 8601; the item's time, injected by the caller so output is reproducible. */
  readonly timestamp: string;
  readonly relationship_id: string;
  readonly chunk_id: string;
  readonly source_entity_id: string;
  readonly target_entity_id: string;
  /** True when the relation came from a model rather than from the text or item fields. */
  readonly synthesized?: boolean;
}

export interface RelationTriplet {
  readonly source: GraphEntity;
  readonly target: GraphEntity;
  readonly relations: readonly GraphRelation[];
  readonly chunk_id: string;
}

export function entityTypeNamespace(type: EntityType): EntityNamespace {
  switch (type) {
    case "SOURCE":
      return "sources";
    case "ACTOR":
      return "actors";
    case "ORGANIZATION":
      return "organizations";
    case "PLACE":
      return "places";
    case "PRODUCT":
      return "products";
    case "TOPIC":
      return "topics";
    case "REFERENCE":
      return "references";
  }
}
