import {
  extractRelations,
  extractStructuralRelations,
  isRelatableKind,
  type AppPerson,
  type EntityExtraction,
  type EntityResolver,
  type ExtractEntitiesContext,
  type GraphEntity,
  type RelationTriplet,
} from "../../engines/extraction/index.js";
import type { NormalizedAppItem } from "../../engines/documents/app-items/index.js";
import type { ItemRow } from "../items/store.js";
import type { IdentityHint } from "./alias-store.js";
import { identityHintsOf, speakerOf, structuralItemOf } from "./app-structure.js";

/** A stored chunk of the item being built. */
export interface ChunkText {
  readonly chunkId: string;
  readonly content: string;
}

/** Mentions read from one chunk, before any entity is resolved (pure, no store access). */
export interface ChunkMentions {
  readonly chunk: ChunkText;
  readonly extraction: EntityExtraction;
}

export type TripletKind = "chunk" | "structural";

export interface ItemGraph {
  readonly triplets: ReadonlyArray<{ readonly kind: TripletKind; readonly triplet: RelationTriplet }>;
  readonly mentions: ReadonlyArray<{ readonly chunkId: string; readonly entityId: string }>;
  readonly entities: ReadonlyMap<string, GraphEntity>;
}

export const itemTimestamp = (item: Pick<ItemRow, "item_timestamp" | "created_at">): string => new Date(item.item_timestamp ?? item.created_at).toISOString();

/** Entity extraction of several texts under one context (the extraction pool's workers, or inline). */
export type ExtractTexts = (texts: readonly string[], context: ExtractEntitiesContext) => Promise<EntityExtraction[]>;

/** Entity extraction per chunk; the reference time makes "yesterday" the item's yesterday. */
export async function readChunkMentions(
  item: Pick<ItemRow, "item_timestamp" | "created_at">,
  app: NormalizedAppItem | null,
  chunks: readonly ChunkText[],
  extract: ExtractTexts,
): Promise<ChunkMentions[]> {
  const knownPeople = (app?.participants ?? []).flatMap((p) => (p.name === undefined ? [] : [p.name]));
  const reference = itemTimestamp(item);
  const extractions = await extract(
    chunks.map((c) => c.content),
    { reference, knownPeople },
  );
  return chunks.map((chunk, i) => {
    const extraction = extractions[i];
    if (extraction === undefined) throw new Error(`entity extraction returned ${extractions.length} results for ${chunks.length} chunks`);
    return { chunk, extraction };
  });
}

/** Every identity the build may resolve, so the persisted alias table can be loaded up front. */
export function identityHints(app: NormalizedAppItem | null, speaker: AppPerson | undefined, chunks: readonly ChunkMentions[]): IdentityHint[] {
  const hints: IdentityHint[] = identityHintsOf(app);
  if (speaker !== undefined) hints.push(speaker);
  for (const { extraction } of chunks) {
    for (const m of extraction.mentions) {
      if (m.kind === "person") hints.push({ name: m.surface });
      else if (m.kind === "email") hints.push({ email: m.surface });
      else if (m.kind === "mention") hints.push({ handle: m.surface });
    }
  }
  return hints;
}

export interface BuildInput {
  readonly item: ItemRow;
  readonly app: NormalizedAppItem | null;
  readonly chunks: readonly ChunkMentions[];
  readonly resolver: EntityResolver;
  /** Relations a chat model found, per chunk id, already on resolved entity ids; else the rules run. */
  readonly modelTriplets?: ReadonlyMap<string, readonly RelationTriplet[]>;
}

/** The item's structural and chunk-level triplets and mentions, on resolved entities. */
export function buildItemGraph(input: BuildInput): ItemGraph {
  const { item, app, resolver } = input;
  const timestamp = itemTimestamp(item);
  const provider = item.app_provider ?? undefined;
  const speaker = speakerOf(app, item.user_name);
  const triplets: Array<{ kind: TripletKind; triplet: RelationTriplet }> = [];
  const mentions = new Map<string, { chunkId: string; entityId: string }>();
  const entities = new Map<string, GraphEntity>();
  const keep = (triplet: RelationTriplet, kind: TripletKind): void => {
    entities.set(triplet.source.entity_id, triplet.source);
    entities.set(triplet.target.entity_id, triplet.target);
    triplets.push({ kind, triplet });
  };
  if (app !== null) {
    const structural = extractStructuralRelations(structuralItemOf(app, item.source_id, item.title, timestamp), { resolver, timestamp });
    for (const triplet of structural) keep(triplet, "structural");
  }
  for (const { chunk, extraction } of input.chunks) {
    for (const mention of extraction.mentions) {
      if (!isRelatableKind(mention.kind)) continue;
      const entity = resolver.resolveMention(mention, provider);
      if (entity === undefined) continue;
      entities.set(entity.entity_id, entity);
      mentions.set(`${chunk.chunkId}\u0000${entity.entity_id}`, { chunkId: chunk.chunkId, entityId: entity.entity_id });
    }
    const fromModel = input.modelTriplets?.get(chunk.chunkId);
    const found = fromModel ?? extractRelations(chunk.content, extraction, { chunkId: chunk.chunkId, timestamp, resolver, provider, speaker });
    for (const triplet of found) keep(triplet, "chunk");
  }
  return { triplets, mentions: [...mentions.values()], entities };
}
