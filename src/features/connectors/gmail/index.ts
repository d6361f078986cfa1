import type { ConnectorProvider, Credentials, SyncedObject } from "../provider.js";
import { ProviderError, nullIfNotFound } from "../provider-error.js";
import { ApiBase, ProviderTransport } from "../provider-transport.js";
import { GmailClient, GoogleTokens } from "./client.js";
import { GMAIL_DESCRIPTOR } from "./credentials.js";
import { gmailThreadObjects, isContent } from "./mapping.js";
import { isoWindow } from "../iso-window.js";

// Each thread costs one threads.get: a small list page keeps one pull (and its checkpoint) short.
const THREAD_PAGE = 25;
const ID_THREAD_PAGE = 100;

interface GmailPullState {
  pageToken: string | null;
  /** The mailbox address (additional_metadata.account_email), read once per window. */
  email: string;
}

/**
 * Gmail: labels (`gmail_label`) are resources; every mail of a thread with a mail in the label
 * becomes an `email` item (the conversation, own replies included). A window lists the label's
 * threads with a mail after the window start (`q=after:<epoch>`), so a reply to an old thread
 * brings the thread back, and reads each thread whole. Deletions (trashed, deleted or
 * unlabelled mails) are found by the id-only pass over the label's threads.
 */
export function createGmailProvider(baseUrl: string, tokenUrl: string, now: () => number = Date.now): ConnectorProvider {
  const transport = new ProviderTransport("Gmail", new ApiBase(baseUrl));
  const tokens = new GoogleTokens(new ProviderTransport("Google", new ApiBase(tokenUrl)), now);
  const client = (credentials: Credentials, signal: AbortSignal): GmailClient => new GmailClient(transport, tokens, credentials, signal, now);

  return {
    descriptor: GMAIL_DESCRIPTOR,

    async verify(credentials, signal) {
      // Always a fresh exchange: new credentials must prove their refresh token now.
      tokens.forget(credentials);
      const profile = await client(credentials, signal).profile();
      return { accountScope: profile.emailAddress, accountLabel: profile.emailAddress };
    },

    async discover(credentials, _page, signal) {
      // Gmail lists every label in one answer: there is no next page.
      const labels = await client(credentials, signal).labels();
      return {
        resources: labels.map((l) => ({
          id: l.id,
          name: l.name,
          resource_type: "gmail_label",
          metadata: { type: l.type ?? "user", messages_total: l.messagesTotal ?? null, threads_total: l.threadsTotal ?? null },
        })),
        nextCursor: null,
      };
    },

    async describeResource(credentials, resourceType, resourceId, signal) {
      if (resourceType !== "gmail_label") return null;
      return nullIfNotFound(async () => {
        const l = await client(credentials, signal).label(resourceId);
        return { id: l.id, name: l.name, resource_type: "gmail_label", metadata: { type: l.type ?? "user" } };
      });
    },

    async resourceAcl(credentials, _resource, signal) {
      // A mailbox is its owner's: its mail is visible to the mailbox's address (a query's `acl`),
      // unless the resource's own acl (configure, PATCH) shares the label with others.
      return [(await client(credentials, signal).profile()).emailAddress.toLowerCase()];
    },

    openWindow: isoWindow,

    async pull(req) {
      const c = client(req.credentials, req.signal);
      const prior = req.state as GmailPullState | null;
      const email = prior?.email ?? (await c.profile()).emailAddress;
      const after = Math.floor(Date.parse(req.window.start) / 1000);
      const list = await c.threads({ labelId: req.resource.resourceId, query: `after:${after}`, pageToken: prior?.pageToken ?? null, max: THREAD_PAGE });
      const objects: SyncedObject[] = [];
      for (const ref of list.threads ?? []) {
        try {
          objects.push(...gmailThreadObjects((await c.thread(ref.id, "full")).messages ?? [], email));
        } catch (err) {
          // A thread deleted between the list and the read is left to the reconciliation.
          if (!(err instanceof ProviderError && err.kind === "not_found")) throw err;
        }
      }
      return { objects, next: list.nextPageToken ? ({ pageToken: list.nextPageToken, email } satisfies GmailPullState) : null };
    },

    async listLiveIds(credentials, resource, state, signal) {
      const c = client(credentials, signal);
      const pageToken = (state as { pageToken: string } | null)?.pageToken ?? null;
      const list = await c.threads({ labelId: resource.resourceId, pageToken, max: ID_THREAD_PAGE });
      const ids: Array<{ kind: "email"; nativeId: string }> = [];
      for (const ref of list.threads ?? []) {
        try {
          for (const m of (await c.thread(ref.id, "minimal")).messages ?? []) if (isContent(m)) ids.push({ kind: "email", nativeId: m.id });
        } catch (err) {
          if (!(err instanceof ProviderError && err.kind === "not_found")) throw err;
        }
      }
      return { ids, next: list.nextPageToken ? { pageToken: list.nextPageToken } : null };
    },
  };
}
