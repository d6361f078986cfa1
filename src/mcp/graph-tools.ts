// Graph reads and the Cypher graph area: `subgraph` (an item's connected items), `graph_query`
// (openCypher on a graph collection) and `graph_collections` (the collections of a database).
import { z } from "zod";
import { clip, graphScopeOf, scopeArguments, scopeOf } from "./tool-scope.js";
import { defineTool } from "./tool-definition.js";

interface Triplet {
  readonly source: { readonly name: string; readonly entity_id: string; readonly type: string };
  readonly target: { readonly name: string; readonly entity_id: string; readonly type: string };
  readonly relations: readonly { readonly canonical_predicate: string }[];
}

/** A relation triplet as one flat edge: who, how, whom (entity ids are item ids for SOURCE entities). */
const edgeOf = (t: Triplet) => ({
  source: t.source.name,
  source_id: t.source.entity_id,
  predicates: t.relations.map((r) => r.canonical_predicate),
  target: t.target.name,
  target_id: t.target.entity_id,
});

const subgraphInput = z.strictObject({
  id: z.string().min(1).describe("The start item's id (from ingest, list or a query's source_id)."),
  type: z.enum(["knowledge", "memory"]).default("knowledge").describe("Which graph: knowledge (default) or memory; they never connect."),
  depth: z.number().int().min(1).max(10).default(2).describe("Hops from the start item (1 to 10)."),
  max_sources: z.number().int().min(1).max(1000).default(50).describe("At most this many items; the nearest are kept."),
  ...scopeArguments,
});

export const subgraphTool = defineTool({
  name: "subgraph",
  title: "Connected items of an item",
  description:
    "The items connected to one item (same thread, parent/child, declared relations), breadth-first from it, with the relations among them " +
    "and the entities around them (people, mentioned names). An unknown id gives an empty graph.",
  input: subgraphInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = scopeOf(args, defaults);
    // The query-string form of the route takes ids holding a '/' as they are.
    const d = await api.call(
      api.raw.GET("/context/subgraph", { params: { query: { ...scope, id: args.id, type: args.type, depth: args.depth, max_sources: args.max_sources } } }),
    );
    const members = d.sources.map((s) => ({
      id: s.source_id,
      title: s.title,
      depth: s.depth,
      ...(s.discovered_via !== undefined ? { discovered_via: s.discovered_via, discovered_relation: s.discovered_relation ?? null } : {}),
    }));
    const relations = d.relations.map(edgeOf);
    const entities = d.auxiliary_relations.map(edgeOf);
    const lines = [
      `${members.length} items around ${args.id}${d.is_truncated ? " (truncated)" : ""}, ${relations.length} item relations, ${entities.length} entity relations`,
    ];
    for (const m of members)
      lines.push(`- [${m.depth}] ${m.id}: ${clip(m.title, 100)}${m.discovered_via ? ` (via ${m.discovered_via}, ${m.discovered_relation ?? "related"})` : ""}`);
    for (const e of [...relations, ...entities].slice(0, 30)) lines.push(`  ${e.source} -${e.predicates.join("/")}-> ${e.target}`);
    return {
      text: lines.join("\n"),
      structured: {
        seed_id: d.seed_source_id,
        items: members,
        relations,
        entity_relations: entities,
        is_truncated: d.is_truncated,
        max_depth_reached: d.max_depth_reached,
      },
    };
  },
});

const ROWS_TEXT_BUDGET = 20_000;

const graphQueryInput = z.strictObject({
  query: z
    .string()
    .min(1)
    .describe(
      "An openCypher statement (CREATE, MERGE, MATCH, SET, DELETE, RETURN...). Put values in params ($name), not in the text. " +
        "Existence checks use pattern predicates; shortestPath goes in RETURN or WITH.",
    ),
  params: z.record(z.string(), z.unknown()).optional().describe("Query parameters, referenced as $name."),
  ...scopeArguments,
});

export const graphQueryTool = defineTool({
  name: "graph_query",
  title: "Run a Cypher query on a graph collection",
  description:
    "Run openCypher against a graph collection you own (the bring-your-own-graph area): each collection is an independent graph, created by its " +
    "first write. Answers the RETURN rows (nodes carry id and labels; relationships id, relation, source_node_id, target_node_id).",
  input: graphQueryInput,
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const scope = graphScopeOf(args, defaults);
    // The graph area answers {success, data} without the envelope's meta, so `call` gives the body itself.
    const body = await api.call(
      api.raw.POST("/byog/query", { body: { ...scope, query: args.query, ...(args.params !== undefined ? { params: args.params } : {}) } }),
    );
    const list = body.data;
    return {
      text: `${list.length} rows\n${clip(JSON.stringify(list, null, 1), ROWS_TEXT_BUDGET)}`,
      structured: { database: scope.database, collection: scope.collection, rows: list, row_count: list.length },
    };
  },
});

const graphCollectionsInput = z.strictObject({ database: scopeArguments.database });

export const graphCollectionsTool = defineTool({
  name: "graph_collections",
  title: "List graph collections",
  description: "List the graph collections (independent Cypher graphs) of a database; pass one as graph_query's collection.",
  input: graphCollectionsInput,
  hints: { readOnlyHint: true, openWorldHint: false },
  handler: async (args, { api, defaults }) => {
    const { database } = scopeOf(args, defaults);
    const data = await api.call(api.raw.GET("/byog/collections", { params: { query: { database } } }));
    return {
      text:
        data.collections.length > 0 ? `${database}: ${data.collections.join(", ")}` : `${database}: no graph collections yet (a graph_query write creates one)`,
      structured: { database, collections: data.collections },
    };
  },
});
