// A generated knowledge graph for `npm run bench:graph`: Slack threads, GitHub issues with
// comments, Notion pages under databases, Linear tickets under projects, cross references and
// structural relations to a pool of people. Written straight through the graph store
// (items, links, triplets, entities), not through the embedding pipeline.
import type { GraphEntity, RelationTriplet } from "../src/engines/extraction/index.js";
import type { ItemRow } from "../src/features/items/store.js";
import { entityIdFor } from "../src/engines/extraction/index.js";
import type { ItemGraph } from "../src/features/context-graph/extract-item-graph.js";
import { resolutionScopeOf, writeItemGraph } from "../src/features/context-graph/graph-write-store.js";
import type { ItemLink } from "../src/features/context-graph/item-links.js";
import type { Store } from "../src/platform/store/db.js";

export interface Dataset {
  readonly sourceIds: readonly string[];
}

/** Deterministic pseudo-random numbers, so every run writes the same graph. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Draft {
  sourceId: string;
  kind: string;
  provider: string;
  external: string;
  title: string;
  thread: string | null;
  parent: string | null;
}

function drafts(total: number): Draft[] {
  const out: Draft[] = [];
  const quarter = Math.floor(total / 4);
  for (let t = 0; out.length < quarter; t += 1) {
    const root = `17000${String(t).padStart(5, "0")}.000000`;
    for (let m = 0; m < 10 && out.length < quarter; m += 1) {
      const ts = m === 0 ? root : `17000${String(t).padStart(5, "0")}.${String(m).padStart(6, "0")}`;
      out.push({ sourceId: `slack:message:${ts}`, kind: "message", provider: "slack", external: ts, title: `Message ${t}/${m}`, thread: root, parent: null });
    }
  }
  for (let i = 0; out.length < quarter * 2; i += 1) {
    const issue = `github:ticket:${i}`;
    out.push({ sourceId: issue, kind: "ticket", provider: "github", external: String(i), title: `Issue ${i}`, thread: null, parent: null });
    for (let c = 0; c < 9 && out.length < quarter * 2; c += 1)
      out.push({
        sourceId: `github:comment:${i}-${c}`,
        kind: "comment",
        provider: "github",
        external: `${i}-${c}`,
        title: `Comment ${c} on ${i}`,
        thread: null,
        parent: issue,
      });
  }
  for (let d = 0; out.length < quarter * 3; d += 1) {
    const db = `notion:knowledge_base:db-${d}`;
    out.push({ sourceId: db, kind: "knowledge_base", provider: "notion", external: `db-${d}`, title: `Wiki ${d}`, thread: null, parent: null });
    for (let p = 0; p < 99 && out.length < quarter * 3; p += 1)
      out.push({
        sourceId: `notion:knowledge_base:page-${d}-${p}`,
        kind: "knowledge_base",
        provider: "notion",
        external: `page-${d}-${p}`,
        title: `Page ${d}/${p}`,
        thread: null,
        parent: db,
      });
  }
  for (let p = 0; out.length < total; p += 1) {
    const project = `linear:custom:project-${p}`;
    out.push({ sourceId: project, kind: "custom", provider: "linear", external: `project-${p}`, title: `Project ${p}`, thread: null, parent: null });
    for (let i = 0; i < 199 && out.length < total; i += 1)
      out.push({
        sourceId: `linear:ticket:ENG-${p}-${i}`,
        kind: "ticket",
        provider: "linear",
        external: `ENG-${p}-${i}`,
        title: `Ticket ${p}/${i}`,
        thread: null,
        parent: project,
      });
  }
  return out;
}

function itemRow(orgId: string, databaseId: string, d: Draft, n: number): ItemRow {
  const at = Date.UTC(2024, 0, 1) + n * 60_000;
  return {
    id: `bench-${n}`,
    org_id: orgId,
    database_id: databaseId,
    collection: "bench",
    corpus: "knowledge",
    source_id: d.sourceId,
    generation: 1,
    origin: "app",
    title: d.title,
    type: d.kind,
    description: null,
    note: null,
    url: null,
    item_timestamp: at,
    metadata: "{}",
    additional_metadata: "{}",
    relations: '{"ids":[]}',
    acl: null,
    app_kind: d.kind,
    app_provider: d.provider,
    app_external_id: d.external,
    thread_id: d.thread,
    parent_id: d.parent,
    content: null,
    file_name: null,
    file_mime: null,
    content_hash: null,
    blob_id: null,
    infer: 0,
    inferred_content: null,
    custom_instructions: null,
    user_name: null,
    expires_at: null,
    status: "completed",
    error_code: null,
    message: null,
    chunk_count: 1,
    created_at: at,
    updated_at: at,
    connector_id: null,
  };
}

/** Structural relations: a sender or author per item and a mention for a third of them. */
function structural(item: ItemRow, people: readonly GraphEntity[], rnd: () => number): ItemGraph {
  const self: GraphEntity = {
    name: item.title,
    type: "SOURCE",
    namespace: "sources",
    entity_id: item.source_id,
    identifier: item.app_external_id,
    provider: item.app_provider ?? "custom",
  };
  const timestamp = new Date(item.item_timestamp ?? 0).toISOString();
  const triplet = (source: GraphEntity, predicate: "sent" | "mentions", target: GraphEntity): RelationTriplet => ({
    source,
    target,
    chunk_id: "",
    relations: [
      {
        canonical_predicate: predicate,
        raw_predicate: predicate === "sent" ? "sender" : "mentions",
        context: "",
        confidence: 1,
        temporal_details: null,
        timestamp,
        relationship_id: `rel_${item.id}_${predicate}`,
        chunk_id: "",
        source_entity_id: source.entity_id,
        target_entity_id: target.entity_id,
      },
    ],
  });
  const sender = people[Math.floor(rnd() * people.length)] ?? self;
  const triplets = [{ kind: "structural" as const, triplet: triplet(sender, "sent", self) }];
  const mentioned = people[Math.floor(rnd() * people.length)];
  if (rnd() < 0.33 && mentioned !== undefined) triplets.push({ kind: "structural", triplet: triplet(self, "mentions", mentioned) });
  const entities = new Map(
    triplets.flatMap(
      ({ triplet: t }) =>
        [
          [t.source.entity_id, t.source],
          [t.target.entity_id, t.target],
        ] as const,
    ),
  );
  return { triplets, mentions: [], entities };
}

export async function writeDataset(store: Store, orgId: string, databaseId: string, total: number, log: (line: string) => void): Promise<Dataset> {
  const rnd = random(42);
  const all = drafts(total);
  const scope = resolutionScopeOf({ databaseId, corpus: "knowledge", collection: "bench" });
  const people: GraphEntity[] = Array.from({ length: 2000 }, (_, i) => ({
    name: `Person ${i}`,
    type: "ACTOR",
    namespace: "actors",
    entity_id: entityIdFor(scope, `email:p${i}@example.com`),
    identifier: `p${i}@example.com`,
  }));
  const BATCH = 1000;
  for (let start = 0; start < all.length; start += BATCH) {
    await store.transaction(async (tx) => {
      const rows = all.slice(start, start + BATCH).map((d, i) => itemRow(orgId, databaseId, d, start + i));
      for (let i = 0; i < rows.length; i += 100)
        await tx
          .insertInto("context_items")
          .values(rows.slice(i, i + 100))
          .execute();
      for (const row of rows) {
        const links: ItemLink[] = row.parent_id === null ? [] : [{ targetSourceId: row.parent_id, kind: "parent", relationType: "parent_of" }];
        // Cross references: about one item in three links to one or two random items.
        if (rnd() < 0.33) {
          const count = rnd() < 0.7 ? 1 : 2;
          for (let k = 0; k < count; k += 1) {
            const target = all[Math.floor(rnd() * all.length)];
            if (target !== undefined && target.sourceId !== row.source_id)
              links.push({ targetSourceId: target.sourceId, kind: "relates_to", relationType: rnd() < 0.5 ? "references" : "reply_to" });
          }
        }
        await writeItemGraph(tx, row, structural(row, people, rnd), links);
      }
    });
    if ((start / BATCH) % 20 === 0) log(`  written ${Math.min(start + BATCH, all.length)} / ${all.length} items`);
  }
  return { sourceIds: all.map((d) => d.sourceId) };
}
