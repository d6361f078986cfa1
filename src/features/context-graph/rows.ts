import type { Generated } from "../../platform/store/schema.js";
import type { Corpus } from "../items/item-types.js";

/** The scope columns of a context-graph row: one graph is a corpus of a collection of a database. */
interface GraphScopeColumns {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  database_id: string;
  corpus: Corpus;
  collection: string;
}

/** An item-level link declared by `item_id`, to the item whose public id is `target_source_id`. */
export interface ContextGraphLinksTable extends GraphScopeColumns {
  item_id: string;
  target_source_id: string;
  /** `relates_to` (explicit relation) or `parent` (the target is the owner's parent). */
  kind: string;
  /** The declared relation type (`references`, `reply_to`, ...); `parent_of` for parents. */
  relation_type: string;
  created_at: number;
}

export interface ContextGraphTripletsTable extends GraphScopeColumns {
  triplet_key: Generated<number>;
  item_id: string;
  chunk_id: string;
  /** `chunk` (read from text) or `structural` (read from app item fields). */
  kind: string;
  source_entity_id: string;
  target_entity_id: string;
  /** JSON array of relations; their entity ids are rendered from the row's columns. */
  relations: string;
}

export interface ContextGraphEntitiesTable extends GraphScopeColumns {
  entity_id: string;
  name: string;
  /** Normalised name, for looking entities up from query text. */
  name_key: string;
  type: string;
  namespace: string;
  identifier: string | null;
  provider: string | null;
}

export interface ContextGraphMentionsTable extends GraphScopeColumns {
  item_id: string;
  chunk_id: string;
  entity_id: string;
}

export interface ContextGraphPeopleTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  database_id: string;
  scope: string;
  entity_id: string;
  name: string;
  /** JSON array of alias keys. */
  keys: string;
}

export interface ContextGraphAliasesTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  database_id: string;
  scope: string;
  alias_key: string;
  entity_id: string;
}
