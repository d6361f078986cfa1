import type { AppItem, AppPerson } from "../../engines/extraction/index.js";
import type { NormalizedAppItem, Participant } from "../../engines/documents/app-items/index.js";
import type { IdentityHint } from "./alias-store.js";

// Maps a normalised app item onto the shape structural relation extraction reads: who sent,
// received, was assigned, authored or was mentioned, its comments and attachments.

/** A participant as a person; opaque account ids (Slack U0123) serve as handles. */
function personOf(p: Participant): AppPerson {
  const handle = p.handle ?? (p.name === undefined && p.email === undefined ? p.id : undefined);
  return { name: p.name ?? null, email: p.email ?? null, handle: handle ?? null };
}

export function structuralItemOf(app: NormalizedAppItem, sourceId: string, title: string, timestamp: string): AppItem {
  const people = (roles: readonly Participant["role"][]): AppPerson[] => app.participants.filter((p) => roles.includes(p.role)).map(personOf);
  const first = (roles: readonly Participant["role"][]): AppPerson | null => people(roles)[0] ?? null;
  return {
    id: sourceId,
    kind: app.kind,
    provider: app.provider ?? "custom",
    title,
    ...(app.externalId === null ? {} : { external_id: app.externalId }),
    timestamp,
    sender: first(["sender"]),
    recipients: people(["recipient"]),
    cc: people(["cc", "bcc"]),
    assignee: first(["assignee"]),
    author: first(["author", "reporter"]),
    mentions: people(["mention"]),
    thread_id: app.threadId,
    parent_id: app.parentId,
    comments: app.comments.map((c, i) => ({
      id: c.id ?? `${sourceId}#comment-${i + 1}`,
      author: c.author === undefined ? null : personOf(c.author),
      body: c.body,
      ...(c.createdAt === undefined ? {} : { timestamp: c.createdAt }),
    })),
    attachments: app.attachments.map((a) => ({ name: a.name })),
  };
}

/** Who "I" is in the item's text: the sender of a message or email. */
export function speakerOf(app: NormalizedAppItem | null, userName: string | null): AppPerson | undefined {
  const sender = app?.participants.find((p) => p.role === "sender");
  if (sender !== undefined) return personOf(sender);
  return userName ? { name: userName } : undefined;
}

export function identityHintsOf(app: NormalizedAppItem | null): IdentityHint[] {
  if (app === null) return [];
  const hints: IdentityHint[] = app.participants.map(personOf);
  for (const comment of app.comments) {
    if (comment.author !== undefined) hints.push(personOf(comment.author));
    for (const m of comment.body.matchAll(/@([A-Za-z0-9][\w.-]*)/g)) hints.push({ handle: m[1] ?? "" });
  }
  return hints;
}
