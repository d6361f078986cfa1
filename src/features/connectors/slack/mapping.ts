import type { SyncedObject } from "../provider.js";
import type { SlackMessage, SlackUser } from "./client.js";

/** Subtypes that are channel housekeeping, not content. */
export const SKIPPED_SUBTYPES = new Set([
  "channel_join",
  "channel_leave",
  "channel_topic",
  "channel_purpose",
  "channel_name",
  "channel_archive",
  "channel_unarchive",
]);

/** Slack ts ("1699999999.000100") <-> epoch milliseconds. */
export const tsToMs = (ts: string): number => Math.floor(Number(ts) * 1000);
export const msToTs = (ms: number): string => `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, "0")}`;
const iso = (ts: string): string => new Date(tsToMs(ts)).toISOString();

export const messageNativeId = (channel: string, ts: string): string => `${channel}:${ts}`;

function authorOf(user: SlackUser | undefined, userId: string | undefined): Record<string, string> | undefined {
  if (userId === undefined) return undefined;
  const name = user?.profile?.real_name ?? user?.real_name ?? user?.profile?.display_name ?? user?.name;
  const email = user?.profile?.email;
  return { id: userId, ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

/**
 * One Slack message (a thread parent or a reply) as a `message` app item. Every message is its
 * own item; a reply points at its thread's parent, and all share `thread_id` = channel:thread_ts.
 */
export function slackMessageObject(channel: { id: string; name: string }, m: SlackMessage, users: ReadonlyMap<string, SlackUser>): SyncedObject {
  const threadTs = m.thread_ts ?? m.ts;
  const isReply = m.thread_ts !== undefined && m.thread_ts !== m.ts;
  const author = authorOf(m.user ? users.get(m.user) : undefined, m.user ?? m.bot_id);
  const editedAt = m.edited?.ts ? iso(m.edited.ts) : null;
  return {
    kind: "message",
    nativeId: messageNativeId(channel.id, m.ts),
    item: {
      kind: "message",
      provider: "slack",
      external_id: messageNativeId(channel.id, m.ts),
      created_at: iso(m.ts),
      updated_at: editedAt ?? iso(m.ts),
      // A message with only files has no text: a title keeps it a valid item.
      ...((m.text ?? "").trim() === "" ? { title: `Message in #${channel.name}` } : {}),
      fields: {
        text: m.text ?? "",
        ...(author ? { author } : {}),
        channel_id: channel.id,
        channel_name: channel.name,
        thread_id: `${channel.id}:${threadTs}`,
        is_edited: editedAt !== null,
        ...(editedAt ? { edited_at: editedAt, edited_by: m.edited?.user ?? null } : {}),
        file_count: m.files?.length ?? 0,
        reply_count: m.reply_count ?? 0,
      },
    },
    ...(isReply ? { parent: { kind: "message" as const, nativeId: messageNativeId(channel.id, threadTs) } } : {}),
    ...(isReply ? { links: [{ predicate: "reply_to", kind: "message" as const, nativeId: messageNativeId(channel.id, threadTs) }] } : {}),
    nativeKeys: {
      slack_ts: m.ts,
      slack_thread_ts: threadTs,
      slack_subtype: m.subtype ?? null,
      slack_bot_id: m.bot_id ?? null,
      slack_reply_count: m.reply_count ?? 0,
      // With reply_count, the thread's fingerprint: a new or deleted reply changes the parent's hash.
      slack_latest_reply: m.latest_reply ?? null,
      slack_files: m.files?.length ?? 0,
    },
  };
}
