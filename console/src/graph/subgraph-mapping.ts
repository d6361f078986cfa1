// Maps GET /context/{id}/subgraph onto the drawn graph: members become item nodes, the other
// entities of the structural relations (senders, mentions, threads) entity nodes, and every
// relation of a triplet one labelled edge.
import type { paths } from "../../../src/client/api-types.js";
import type { Unwrapped } from "../../../src/client/api-client.js";
import type { GraphData, GraphEdge, GraphNode } from "./graph-model.js";

export type SubgraphData = Unwrapped<paths["/context/{id}/subgraph"]["get"]["responses"][200]["content"]["application/json"]>;
type Triplet = SubgraphData["relations"][number];
type Entity = Triplet["source"];

const itemNodeId = (sourceId: string): string => `item:${sourceId}`;
const entityNodeId = (entityId: string): string => `entity:${entityId}`;

export function subgraphToGraph(data: SubgraphData): GraphData {
  const members = new Set(data.sources.map((m) => m.source_id));
  const nodes = new Map<string, GraphNode>();
  for (const member of data.sources) {
    const { source_id, title, ...rest } = member;
    nodes.set(itemNodeId(source_id), {
      id: itemNodeId(source_id),
      label: title || source_id,
      kind: "item",
      itemId: source_id,
      details: { source_id, title, ...rest },
    });
  }
  // An endpoint that is a member is its item node; anything else (a person, a thread, an item
  // outside the members) is drawn as an entity.
  const endpoint = (entity: Entity): string => {
    if (members.has(entity.entity_id)) return itemNodeId(entity.entity_id);
    const id = entityNodeId(entity.entity_id);
    if (!nodes.has(id)) nodes.set(id, { id, label: entity.name || entity.entity_id, kind: entity.type, itemId: null, details: { ...entity } });
    return id;
  };
  const edges: GraphEdge[] = [];
  for (const triplet of [...data.relations, ...data.auxiliary_relations]) {
    const source = endpoint(triplet.source);
    const target = endpoint(triplet.target);
    for (const relation of triplet.relations) {
      const label = relation.canonical_predicate === "relates_to" ? relation.raw_predicate : relation.canonical_predicate;
      edges.push({ id: `rel:${relation.relationship_id}`, source, target, label, details: { ...relation } });
    }
  }
  return { nodes: [...nodes.values()], edges };
}
