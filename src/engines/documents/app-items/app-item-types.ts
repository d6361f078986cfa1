export const APP_ITEM_KINDS = ["email", "message", "ticket", "knowledge_base", "comment", "custom"] as const;
export type AppItemKind = (typeof APP_ITEM_KINDS)[number];

export type ParticipantRole = "sender" | "recipient" | "cc" | "bcc" | "assignee" | "reporter" | "author" | "commenter" | "mention";

/** A person or account attached to an item; at least one of name, email, handle, id is set. */
export interface Participant {
  role: ParticipantRole;
  name?: string;
  email?: string;
  handle?: string;
  id?: string;
  /** Best human-readable form: name, else email, else handle, else id. */
  display: string;
}

export type RelationTarget =
  | { type: "id"; id: string }
  /** Provider-aware target; `id` is set when the target's kind is known, else stores match on provider + external id. */
  | { type: "external"; provider: string; externalId: string; kind?: string; id?: string };

export interface AppItemRelation {
  predicate: string;
  target: RelationTarget;
}

export interface NormalizedAttachment {
  name: string;
  text?: string;
  mimeType?: string;
  url?: string;
}

export interface NormalizedComment {
  id?: string;
  author?: Participant;
  body: string;
  createdAt?: string;
}

export interface NormalizedAppItem {
  /** `id` when given, else `<provider>:<kind>:<external_id>`. */
  id: string;
  shape: "simple" | "rich";
  kind: AppItemKind;
  /** The simple shape's `type` verbatim; the kind for rich items. */
  type: string;
  provider: string | null;
  externalId: string | null;
  title: string;
  /** Whether the title was given (true) or derived from fields or text (false). */
  titleGiven: boolean;
  description: string | null;
  url: string | null;
  collection: string | null;
  /** Main text: `content.text` (simple) or the kind's body field (rich). */
  body: string;
  /** ISO 8601 UTC. `timestamp` is the item's main time: given, else updated, else created. */
  timestamp: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  threadId: string | null;
  parentId: string | null;
  participants: Participant[];
  /** Free fields of the rich shape, as given. */
  fields: Record<string, unknown>;
  attachments: NormalizedAttachment[];
  comments: NormalizedComment[];
  relations: AppItemRelation[];
  metadata: Record<string, unknown>;
  additionalMetadata: Record<string, unknown>;
  acl: string[] | null;
}

export type AppItemValidation = { ok: true; item: NormalizedAppItem } | { ok: false; code: "INVALID_INPUT"; message: string };
