import type { GraphEntity, GraphRelation } from "../../engines/extraction/index.js";
import { relationshipIdFor } from "../../engines/extraction/index.js";
import type { GraphItem } from "./traversal-store.js";

// Wire shapes of the interface's Relation triplet. Entity relations use the extraction
// vocabulary; item-level relations add `relates_to`, `same_thread` and `parent_of`.

export interface WireRelation extends Omit<GraphRelation, "canonical_predicate"> {
  readonly canonical_predicate: string;
}

export interface WireTriplet {
  readonly source: GraphEntity;
  readonly target: GraphEntity;
  readonly relations: readonly WireRelation[];
  readonly chunk_id: string;
}

/** An item as a graph endpoint: a SOURCE entity whose entity_id is the item's public id. */
function sourceEntity(item: GraphItem): GraphEntity {
  const entity: GraphEntity = { name: item.title, type: "SOURCE", namespace: "sources", entity_id: item.source_id, identifier: item.app_external_id };
  return item.app_provider === null ? entity : { ...entity, provider: item.app_provider };
}

/** An item-level relation: certain, no chunk, no context sentence. */
export function itemTriplet(source: GraphItem, target: GraphItem, canonical: string, raw: string, at: number): WireTriplet {
  const from = sourceEntity(source);
  const to = sourceEntity(target);
  return {
    source: from,
    target: to,
    chunk_id: "",
    relations: [
      {
        canonical_predicate: canonical,
        raw_predicate: raw,
        context: "",
        confidence: 1,
        temporal_details: null,
        timestamp: new Date(at).toISOString(),
        relationship_id: relationshipIdFor("", from.entity_id, raw, to.entity_id),
        chunk_id: "",
        source_entity_id: from.entity_id,
        target_entity_id: to.entity_id,
      },
    ],
  };
}
