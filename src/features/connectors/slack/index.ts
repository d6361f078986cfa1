import type { ConnectorProvider, Credentials, PullPage, ResourceRef, SyncedObject } from "../provider.js";
import { ProviderError, nullIfNotFound } from "../provider-error.js";
import { ApiBase, ProviderTransport } from "../provider-transport.js";
import { tokenOf } from "../token-credentials.js";
import { nextCursorOf, SlackClient, type SlackMessage, type SlackUser } from "./client.js";
import { SLACK_DESCRIPTOR } from "./credentials.js";
import { messageNativeId, msToTs, SKIPPED_SUBTYPES, slackMessageObject, tsToMs } from "./mapping.js";

// Parents are re-read over a trailing week on every run, with their threads: a new reply or an
// edit does not move a parent's ts, so only re-reading recent parents finds them (the gap of Onyx
// issue 14012). Older threads are checked by the reconciliation pass (see listLiveIds).
const TRAILING_MS = 7 * 86_400_000;
const HISTORY_PAGE = 200;
// The reconciliation pass re-reads every quiet thread once in this many days (a slice a day), so
// an edit to a reply of a thread with no other activity is caught within that many daily passes.
const SWEEP_DAYS = 7;
const DAY_MS = 86_400_000;

/** The day's slice of quiet threads: a stable hash of the thread's ts picks its day. */
function inTodaysSweep(ts: string, nowMs: number): boolean {
  let h = 0;
  for (const ch of ts) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % SWEEP_DAYS === Math.floor(nowMs / DAY_MS) % SWEEP_DAYS;
}

interface SlackPullState {
  cursor: string | null;
}

/**
 * Slack: channels are resources; each message and each thread reply is a `message` item.
 * Window: `start` = cursor minus the trailing week (or the lookback on a first pull), `end` =
 * the run's start time; `since` = the committed cursor, and a thread's replies are fetched
 * when its latest_reply is newer than that (or on a first pull).
 */
export function createSlackProvider(baseUrl: string, now: () => number = Date.now): ConnectorProvider {
  const transport = new ProviderTransport("Slack", new ApiBase(baseUrl));
  const client = (credentials: Credentials, signal: AbortSignal): SlackClient => new SlackClient(transport, tokenOf(credentials), signal, now);

  /** The senders of `messages` (users.info), adding to `out` (a page's cache). */
  async function users(c: SlackClient, messages: readonly SlackMessage[], out = new Map<string, SlackUser>()): Promise<Map<string, SlackUser>> {
    for (const id of new Set(messages.flatMap((m) => (m.user ? [m.user] : [])))) {
      if (out.has(id)) continue;
      try {
        out.set(id, (await c.usersInfo(id)).user);
      } catch (err) {
        if (!(err instanceof ProviderError && err.kind === "not_found")) throw err;
      }
    }
    return out;
  }

  const channelOf = (r: ResourceRef) => ({ id: r.resourceId, name: r.displayName });
  const content = (messages: readonly SlackMessage[]) => messages.filter((m) => !(m.subtype && SKIPPED_SUBTYPES.has(m.subtype)));

  return {
    descriptor: SLACK_DESCRIPTOR,

    async verify(credentials, signal) {
      const auth = await client(credentials, signal).authTest();
      return { accountScope: auth.team_id, accountLabel: auth.team ?? auth.team_id };
    },

    async discover(credentials, page, signal) {
      const list = await client(credentials, signal).conversationsList(page.cursor, page.limit);
      return {
        resources: list.channels.map((ch) => ({
          id: ch.id,
          name: ch.name,
          resource_type: "channel",
          metadata: {
            is_private: ch.is_private === true,
            is_member: ch.is_member === true,
            num_members: ch.num_members ?? null,
            topic: ch.topic?.value ?? "",
            purpose: ch.purpose?.value ?? "",
          },
        })),
        nextCursor: nextCursorOf(list),
      };
    },

    async describeResource(credentials, resourceType, resourceId, signal) {
      if (resourceType !== "channel") return null;
      return nullIfNotFound(async () => {
        const ch = (await client(credentials, signal).conversationsInfo(resourceId)).channel;
        return { id: ch.id, name: ch.name, resource_type: "channel", metadata: { is_private: ch.is_private === true } };
      });
    },

    async resourceAcl(credentials, resource, signal) {
      const c = client(credentials, signal);
      const info = await c.conversationsInfo(resource.resourceId);
      if (info.channel.is_private !== true) return null;
      const emails: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await c.conversationsMembers(resource.resourceId, cursor);
        const known = await users(
          c,
          page.members.map((user) => ({ user, ts: "0" })),
        );
        for (const u of known.values()) if (u.profile?.email) emails.push(u.profile.email.toLowerCase());
        cursor = nextCursorOf(page);
      } while (cursor !== null);
      return emails;
    },

    openWindow(cursor, lookbackStartMs, nowMs) {
      const start = cursor === "" ? lookbackStartMs : Math.max(lookbackStartMs, tsToMs(cursor) - TRAILING_MS);
      return { start: msToTs(start), end: msToTs(nowMs), since: cursor };
    },

    async pull(req): Promise<PullPage> {
      const c = client(req.credentials, req.signal);
      const state = (req.state as SlackPullState | null) ?? { cursor: null };
      const channel = channelOf(req.resource);
      const page = await c.conversationsHistory({
        channel: channel.id,
        oldest: req.window.start,
        latest: req.window.end,
        cursor: state.cursor,
        limit: HISTORY_PAGE,
      });
      const parents = content(page.messages);
      const replies: SlackMessage[] = [];
      for (const m of parents) {
        // Every thread active within the window is re-read: new replies and edits to replies.
        const active = req.window.since === "" || (m.latest_reply !== undefined && Number(m.latest_reply) >= Number(req.window.start));
        if ((m.reply_count ?? 0) > 0 && active) replies.push(...content(await c.threadReplies(channel.id, m.ts)));
      }
      const known = await users(c, [...parents, ...replies]);
      const objects: SyncedObject[] = [...parents, ...replies].map((m) => slackMessageObject(channel, m, known));
      const next = nextCursorOf(page);
      return { objects, next: next === null ? null : ({ cursor: next } satisfies SlackPullState) };
    },

    /**
     * Every parent of the channel (all history). With `changed`, parents that differ from the
     * stored ones are returned as objects (an edit to a parent older than the trailing week), and
     * a thread is re-read (replies listed and returned) when its parent changed (reply_count,
     * latest_reply: a new or deleted reply, at any age), its latest reply is within the trailing
     * week, or it is in today's sweep slice; the replies of the other threads stay as stored
     * (keepChildrenOf). Without `changed`, every thread is listed.
     */
    async listLiveIds(credentials, resource, state, signal, changed) {
      const c = client(credentials, signal);
      const cursor = (state as SlackPullState | null)?.cursor ?? null;
      const channel = channelOf(resource);
      const page = await c.conversationsHistory({ channel: channel.id, cursor, limit: 999 });
      const parents = content(page.messages);
      const ids: Array<{ kind: "message"; nativeId: string }> = parents.map((m) => ({ kind: "message", nativeId: messageNativeId(channel.id, m.ts) }));
      const threads = parents.filter((m) => (m.reply_count ?? 0) > 0);
      const objects: SyncedObject[] = [];
      const keepChildrenOf: Array<{ kind: "message"; nativeId: string }> = [];
      if (changed && parents.length > 0) {
        const nowMs = now();
        const known = await users(c, parents);
        const differ = new Set((await changed(parents.map((m) => slackMessageObject(channel, m, known)))).map((o) => o.nativeId));
        const active = (m: SlackMessage): boolean => m.latest_reply !== undefined && tsToMs(m.latest_reply) >= nowMs - TRAILING_MS;
        const reread: SlackMessage[] = [];
        for (const m of parents) {
          const nativeId = messageNativeId(channel.id, m.ts);
          if ((m.reply_count ?? 0) === 0) {
            if (differ.has(nativeId)) reread.push(m);
          } else if (differ.has(nativeId) || active(m) || inTodaysSweep(m.ts, nowMs)) {
            reread.push(m, ...content(await c.threadReplies(channel.id, m.ts)));
          } else {
            keepChildrenOf.push({ kind: "message", nativeId });
          }
        }
        const all = await users(c, reread, known);
        objects.push(...reread.map((m) => slackMessageObject(channel, m, all)));
        for (const o of objects) ids.push({ kind: "message", nativeId: o.nativeId });
      } else {
        for (const m of threads) {
          for (const r of content(await c.threadReplies(channel.id, m.ts))) ids.push({ kind: "message", nativeId: messageNativeId(channel.id, r.ts) });
        }
      }
      const next = nextCursorOf(page);
      return { ids, objects, keepChildrenOf, next: next === null ? null : ({ cursor: next } satisfies SlackPullState) };
    },
  };
}
