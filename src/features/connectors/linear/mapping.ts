import type { ObjectLink, SyncedObject } from "../provider.js";
import type { LinearComment, LinearIssue, LinearUser } from "./client.js";

const person = (u: LinearUser | null | undefined): Record<string, string> | undefined => {
  if (!u) return undefined;
  const out: Record<string, string> = {};
  if (u.id) out.id = u.id;
  if (u.name) out.name = u.name;
  if (u.email) out.email = u.email.toLowerCase();
  return Object.keys(out).length > 0 ? out : undefined;
};

/** A Linear issue as a `ticket` item; its thread is the issue, a sub-issue points at its parent. */
export function linearIssueObject(resourceType: string, issue: LinearIssue): SyncedObject {
  const assignee = person(issue.assignee);
  const creator = person(issue.creator);
  const links: ObjectLink[] = issue.parent ? [{ predicate: "child_of", kind: "ticket", nativeId: issue.parent.id }] : [];
  return {
    kind: "ticket",
    nativeId: issue.id,
    item: {
      kind: "ticket",
      provider: "linear",
      external_id: issue.id,
      title: `${issue.identifier} ${issue.title}`,
      url: issue.url,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      fields: {
        body: issue.description ?? "",
        identifier: issue.identifier,
        state: issue.state?.name ?? null,
        state_type: issue.state?.type ?? null,
        priority: issue.priority ?? null,
        priority_label: issue.priorityLabel ?? null,
        ...(assignee ? { assignee } : {}),
        ...(creator ? { creator } : {}),
        team_key: issue.team?.key ?? null,
        team_name: issue.team?.name ?? null,
        project_name: issue.project?.name ?? null,
        labels: (issue.labels?.nodes ?? []).map((l) => l.name),
        thread_id: issue.id,
        completed_at: issue.completedAt ?? null,
        canceled_at: issue.canceledAt ?? null,
        archived_at: issue.archivedAt ?? null,
      },
    },
    ...(issue.parent ? { parent: { kind: "ticket" as const, nativeId: issue.parent.id } } : {}),
    links,
    nativeKeys: { resource_type: resourceType, linear_issue_id: issue.id, linear_identifier: issue.identifier, linear_team_key: issue.team?.key ?? null },
  };
}

/** A comment as a `comment` item under its issue; a reply also links to the comment it answers. */
export function linearCommentObject(resourceType: string, issue: { id: string; identifier: string }, c: LinearComment): SyncedObject {
  const author = person(c.user);
  const links: ObjectLink[] = [{ predicate: "comment_on", kind: "ticket", nativeId: issue.id }];
  if (c.parent) links.push({ predicate: "reply_to", kind: "comment", nativeId: c.parent.id });
  return {
    kind: "comment",
    nativeId: c.id,
    item: {
      kind: "comment",
      provider: "linear",
      external_id: c.id,
      ...(c.body.trim() === "" ? { title: `Comment on ${issue.identifier}` } : {}),
      ...(c.url ? { url: c.url } : {}),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      fields: { body: c.body, ...(author ? { author } : {}), thread_id: issue.id, identifier: issue.identifier },
    },
    parent: { kind: "ticket", nativeId: issue.id },
    links,
    nativeKeys: { resource_type: resourceType, linear_comment_id: c.id, linear_issue_id: issue.id, linear_identifier: issue.identifier },
  };
}
