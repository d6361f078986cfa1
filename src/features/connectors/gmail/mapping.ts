import { decodeEntities } from "../../../engines/documents/parse/simple-html.js";
import type { ObjectLink, SyncedObject } from "../provider.js";
import type { GmailMessage, GmailPart } from "./client.js";
import { mailHtmlText } from "./html-text.js";

/** Labels whose mails are not content: trashed, spam and unsent drafts. */
const HIDDEN_LABELS = new Set(["TRASH", "SPAM", "DRAFT"]);
export const isContent = (m: GmailMessage): boolean => !(m.labelIds ?? []).some((l) => HIDDEN_LABELS.has(l));

const decode = (data: string | undefined): string => (data ? Buffer.from(data, "base64url").toString("utf8") : "");

/** The first part of a MIME type in the tree (depth first), attachments excluded. */
function findPart(part: GmailPart | undefined, mime: string): GmailPart | undefined {
  if (!part) return undefined;
  if (part.mimeType === mime && !part.filename && part.body?.data) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, mime);
    if (found) return found;
  }
  return undefined;
}

/** A mail's text: text/plain, else its HTML as text, else Gmail's snippet. */
function mailText(m: GmailMessage): string {
  const plainPart = findPart(m.payload, "text/plain");
  if (plainPart) return decode(plainPart.body?.data).replace(/\r\n/g, "\n").trim();
  const htmlPart = findPart(m.payload, "text/html");
  if (htmlPart) return mailHtmlText(decode(htmlPart.body?.data));
  return decodeEntities(m.snippet ?? "");
}

const header = (m: GmailMessage, name: string): string | undefined => m.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

function attachmentsOf(part: GmailPart | undefined, out: string[] = []): string[] {
  if (!part) return out;
  if (part.filename) out.push(part.filename);
  for (const child of part.parts ?? []) attachmentsOf(child, out);
  return out;
}

const sentAt = (m: GmailMessage): number => Number(m.internalDate ?? 0);

/**
 * The mails of one thread (a conversation) as `email` items. Every mail is its own item with
 * `thread_id` = the Gmail thread id; a later mail's parent is the thread's first mail, and it
 * links `reply_to` the mail it answers (In-Reply-To, else the one before it).
 */
export function gmailThreadObjects(messages: readonly GmailMessage[], accountEmail: string): SyncedObject[] {
  // threads.get lists a thread in order; the stable sort keeps that order for equal dates.
  const mails = messages.filter(isContent).sort((a, b) => sentAt(a) - sentAt(b));
  const root = mails[0];
  const byMessageId = new Map(
    mails.flatMap((m) => {
      const id = header(m, "Message-ID");
      return id ? [[id, m.id] as const] : [];
    }),
  );
  return mails.map((m, i) => {
    const inReplyTo = header(m, "In-Reply-To");
    const answered = (inReplyTo ? byMessageId.get(inReplyTo) : undefined) ?? mails[i - 1]?.id;
    const links: ObjectLink[] = answered && answered !== m.id ? [{ predicate: "reply_to", kind: "email", nativeId: answered }] : [];
    const subject = header(m, "Subject") ?? "";
    const attachments = attachmentsOf(m.payload);
    return {
      kind: "email",
      nativeId: m.id,
      item: {
        kind: "email",
        provider: "gmail",
        external_id: m.id,
        title: subject.trim() === "" ? "(no subject)" : subject,
        url: `https://mail.google.com/mail/u/${encodeURIComponent(accountEmail)}/#all/${m.threadId}`,
        created_at: new Date(sentAt(m)).toISOString(),
        fields: {
          subject,
          body: mailText(m),
          from: header(m, "From") ?? "",
          to: header(m, "To") ?? "",
          cc: header(m, "Cc") ?? "",
          reply_to: header(m, "Reply-To") ?? "",
          message_id: header(m, "Message-ID") ?? "",
          thread_id: m.threadId,
          gmail_msg_id: m.id,
          account_email: accountEmail,
          attachment_count: attachments.length,
          ...(attachments.length > 0 ? { attachment_names: attachments } : {}),
        },
      },
      ...(root && root.id !== m.id ? { parent: { kind: "email" as const, nativeId: root.id } } : {}),
      links,
      nativeKeys: { account_email: accountEmail, gmail_msg_id: m.id, thread_id: m.threadId },
    };
  });
}
