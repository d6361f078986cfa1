import type { SyncedObject } from "../provider.js";
import type { GithubComment, GithubIssue, GithubUserRef } from "./client.js";

export const issueNativeId = (repo: string, number: number): string => `${repo}#${number}`;
export const commentNativeId = (repo: string, id: number): string => `${repo}:comment:${id}`;

const person = (u: GithubUserRef | null | undefined) => (u ? { login: u.login, ...(u.id !== undefined ? { id: String(u.id) } : {}) } : undefined);

/** The issue number at the end of a comment's issue_url (.../issues/42). */
function issueNumberOf(issueUrl: string): number | null {
  const m = /\/issues\/(\d+)$/.exec(issueUrl);
  return m?.[1] ? Number(m[1]) : null;
}

/** An issue or pull request as a `ticket` item; its thread is the issue. */
export function githubIssueObject(repo: string, issue: GithubIssue): SyncedObject {
  const isPr = issue.pull_request !== undefined;
  const author = person(issue.user);
  return {
    kind: "ticket",
    nativeId: issueNativeId(repo, issue.number),
    item: {
      kind: "ticket",
      provider: "github",
      external_id: issueNativeId(repo, issue.number),
      title: issue.title,
      url: issue.html_url,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      fields: {
        body: issue.body ?? "",
        ...(author ? { author } : {}),
        state: issue.state,
        is_pr: isPr,
        labels: issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l.length > 0),
        assignees: (issue.assignees ?? []).map((a) => ({ login: a.login })),
        thread_id: issueNativeId(repo, issue.number),
        closed_at: issue.closed_at,
        ...(issue.milestone?.title ? { milestone: issue.milestone.title, milestone_due: issue.milestone.due_on ?? null } : {}),
        ...(isPr && issue.pull_request?.merged_at ? { merged_at: issue.pull_request.merged_at } : {}),
      },
    },
    nativeKeys: { github_repo: repo, github_issue_number: issue.number, github_id: issue.id },
  };
}

/** An issue or PR comment as a `comment` item whose parent is its issue. */
export function githubCommentObject(repo: string, comment: GithubComment): SyncedObject | null {
  const number = issueNumberOf(comment.issue_url);
  if (number === null) return null;
  const author = person(comment.user);
  return {
    kind: "comment",
    nativeId: commentNativeId(repo, comment.id),
    item: {
      kind: "comment",
      provider: "github",
      external_id: commentNativeId(repo, comment.id),
      url: comment.html_url,
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      fields: { body: comment.body ?? "", ...(author ? { author } : {}), thread_id: issueNativeId(repo, number) },
    },
    parent: { kind: "ticket", nativeId: issueNativeId(repo, number) },
    links: [{ predicate: "comment_on", kind: "ticket", nativeId: issueNativeId(repo, number) }],
    nativeKeys: { github_repo: repo, github_issue_number: number, github_comment_id: comment.id },
  };
}
