import { toPerson, type AppItem, type AppPersonRef } from "./app-item.js";
import type { EntityResolver } from "./entity-resolver.js";
import { toTriplets } from "./extract-relations.js";
import type { GraphEntity, GraphRelation, RelationTriplet } from "./graph-types.js";
import type { StructuralPredicate } from "./predicates.js";
import { relationshipIdFor, stableId } from "./stable-id.js";

// Relations read from an app item's fields rather than its text: who sent, received, was cc'd,
// assigned, authored, mentioned or commented, the thread and parent, and attachments. They are
// certain (confidence 1) and carry no context sentence.

export interface StructuralOptions {
  readonly resolver: EntityResolver;
  /** Used when the item has no timestamp of its own. */
  readonly timestamp: string;
  /** Chunk id stamped on the relations; structural relations belong to no chunk by default. */
  readonly chunkId?: string;
}

const HANDLE_IN_TEXT = /(?<![\w@.])@([A-Za-z0-9][\w.-]*[A-Za-z0-9_]|[A-Za-z0-9])/g;

function source(id: string, name: string, provider: string, identifier: string | null = null): GraphEntity {
  return { name, type: "SOURCE", namespace: "sources", entity_id: id, identifier, provider };
}

export function extractStructuralRelations(item: AppItem, options: StructuralOptions): RelationTriplet[] {
  const chunkId = options.chunkId ?? "";
  const provider = item.provider;
  const self = source(item.id, item.title, provider, item.external_id ?? null);
  const found: { source: GraphEntity; target: GraphEntity; relation: GraphRelation }[] = [];

  const add = (from: GraphEntity, predicate: StructuralPredicate, to: GraphEntity, raw: string, timestamp?: string): void => {
    if (from.entity_id === to.entity_id) return;
    found.push({
      source: from,
      target: to,
      relation: {
        canonical_predicate: predicate,
        raw_predicate: raw,
        context: "",
        confidence: 1,
        temporal_details: null,
        timestamp: timestamp ?? item.timestamp ?? options.timestamp,
        relationship_id: relationshipIdFor(chunkId, from.entity_id, predicate, to.entity_id),
        chunk_id: chunkId,
        source_entity_id: from.entity_id,
        target_entity_id: to.entity_id,
      },
    });
  };
  const actor = (ref: AppPersonRef | null | undefined): GraphEntity | undefined =>
    ref === null || ref === undefined ? undefined : options.resolver.resolvePerson({ ...toPerson(ref), provider });
  const each = (refs: readonly AppPersonRef[] | undefined, use: (entity: GraphEntity) => void): void => {
    for (const ref of refs ?? []) {
      const entity = actor(ref);
      if (entity !== undefined) use(entity);
    }
  };

  const sender = actor(item.sender);
  if (sender !== undefined) add(sender, "sent", self, "sender");
  each(item.recipients, (entity) => add(self, "sent_to", entity, "recipients"));
  each(item.cc, (entity) => add(self, "cc", entity, "cc"));
  const assignee = actor(item.assignee);
  if (assignee !== undefined) add(self, "assigned_to", assignee, "assignee");
  const author = actor(item.author);
  if (author !== undefined) add(author, "authored", self, "author");
  each(item.mentions, (entity) => add(self, "mentions", entity, "mentions"));
  each(item.participants, (entity) => add(entity, "participated_in", self, "participants"));
  if (item.thread_id) add(self, "part_of", source(item.thread_id, item.thread_id, provider), "thread_id");
  if (item.parent_id) add(source(item.parent_id, item.parent_id, provider), "parent_of", self, "parent_id");

  for (const comment of item.comments ?? []) {
    const node = source(comment.id, `Comment on ${item.title}`, provider);
    add(node, "commented_on", self, "comments", comment.timestamp);
    const commenter = actor(comment.author);
    if (commenter !== undefined) add(commenter, "authored", node, "comments.author", comment.timestamp);
    for (const match of (comment.body ?? "").matchAll(HANDLE_IN_TEXT)) {
      const mentioned = actor(`@${match[1] ?? ""}`);
      if (mentioned !== undefined) add(node, "mentions", mentioned, "comments.body", comment.timestamp);
    }
  }
  for (const attachment of item.attachments ?? []) {
    const id = attachment.id ?? stableId("att", item.id, attachment.name);
    add(self, "has_attachment", source(id, attachment.name, provider, attachment.name), "attachments");
  }
  return toTriplets(found, chunkId);
}
