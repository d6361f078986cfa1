// The normalised shape of an app item (email, Slack message, GitHub/Linear ticket, Notion page...)
// that structural relation extraction reads. Connectors map provider payloads into it.

export type AppItemKind = "email" | "message" | "ticket" | "knowledge_base" | "comment" | "custom";

export interface AppPerson {
  readonly name?: string | null;
  readonly email?: string | null;
  readonly handle?: string | null;
}

/** A bare string is read as an email when it has an @ inside, a handle when it starts with @, else a name. */
export type AppPersonRef = AppPerson | string;

export interface AppComment {
  readonly id: string;
  readonly author?: AppPersonRef | null;
  readonly body?: string;
  readonly timestamp?: string;
}

export interface AppAttachment {
  readonly name: string;
  /** Id of the attachment when it is ingested as an item of its own. */
  readonly id?: string;
}

export interface AppItem {
  readonly id: string;
  readonly kind: AppItemKind;
  readonly provider: string;
  readonly title: string;
  readonly external_id?: string;
  /** ISO 8601; stamped on the item's relations. */
  readonly timestamp?: string;
  readonly sender?: AppPersonRef | null;
  readonly recipients?: readonly AppPersonRef[];
  readonly cc?: readonly AppPersonRef[];
  readonly assignee?: AppPersonRef | null;
  readonly author?: AppPersonRef | null;
  readonly mentions?: readonly AppPersonRef[];
  readonly participants?: readonly AppPersonRef[];
  readonly thread_id?: string | null;
  readonly parent_id?: string | null;
  readonly comments?: readonly AppComment[];
  readonly attachments?: readonly AppAttachment[];
}

export function toPerson(ref: AppPersonRef): AppPerson {
  if (typeof ref !== "string") return ref;
  const value = ref.trim();
  if (value.startsWith("@")) return { handle: value };
  if (/^[^\s@]+@[^\s@]+$/.test(value)) return { email: value };
  return { name: value };
}
