import { buildDocument } from "../parse/build-document.js";
import { markdownToBlocks } from "../parse/parse-markdown.js";
import type { DraftBlock, ParsedDocument } from "../parse/parsed-document.js";
import { textToBlocks } from "../parse/parse-text.js";
import type { AppItemKind, NormalizedAppItem, Participant } from "./app-item-types.js";
import { nestedTexts } from "./nested-fields.js";

/** Header fields shown before the body, per kind: label and the field names it may come from. */
const HEADER_FIELDS: Record<AppItemKind, Array<[string, string[]]>> = {
  email: [
    ["From", ["from", "sender"]],
    ["To", ["to"]],
    ["Cc", ["cc"]],
    ["Subject", ["subject"]],
    ["Date", ["date"]],
  ],
  message: [
    ["Channel", ["channel", "channel_name"]],
    ["From", ["user", "author", "sender"]],
  ],
  ticket: [
    ["Project", ["project", "team"]],
    ["Status", ["status", "state"]],
    ["Priority", ["priority"]],
    ["Assignee", ["assignee", "assignees"]],
    ["Labels", ["labels"]],
  ],
  knowledge_base: [
    ["Database", ["database"]],
    ["Parent", ["parent"]],
  ],
  comment: [["Author", ["author", "user"]]],
  custom: [],
};

/** Fields never rendered as text: bodies (rendered separately), ids, raw markup and links. */
const HIDDEN_FIELD = /(^|_)(id|ts|url|html|raw)$|^(body|text|content|snippet|description|title|subject|thread_id|thread_ts|mentions)$/;
const MAX_FIELD_CHARS = 300;

function participantText(p: Participant): string {
  if (p.name !== undefined && p.email !== undefined) return `${p.name} <${p.email}>`;
  return p.display;
}

/** Scalars, lists of scalars and person-like objects become readable text; other objects are skipped. */
function fieldText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(fieldText).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(", ") : undefined;
  }
  if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    for (const key of ["name", "display_name", "title", "email", "login", "username", "id"]) {
      const v = o[key];
      if (typeof v === "string" && v.length > 0) return v;
    }
  }
  return undefined;
}

function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function headerBlocks(item: NormalizedAppItem, unit: string | undefined): DraftBlock[] {
  const blocks: DraftBlock[] = [];
  const used = new Set<string>();
  const push = (name: string, text: string): void => {
    const value = text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS - 3)}...` : text;
    blocks.push({ kind: "field", name, text: `${name}: ${value}`, sectionPath: [], ...(unit === undefined ? {} : { unit }) });
  };
  const subjectShown = HEADER_FIELDS[item.kind].some(([label, keys]) => label === "Subject" && keys.some((k) => fieldText(item.fields[k]) !== undefined));
  if (item.titleGiven && !subjectShown) push("Title", item.title);
  for (const [label, keys] of HEADER_FIELDS[item.kind]) {
    for (const key of keys) used.add(key);
    const text = keys.map((k) => fieldText(item.fields[k])).find((t) => t !== undefined);
    if (text !== undefined) push(label, text);
  }
  const shown = (key: string): boolean => !used.has(key) && !HIDDEN_FIELD.test(key);
  if (item.kind === "custom") {
    // No known field names: every text under the fields, nested ones too, labelled by its path;
    // a long or multi-line one is body text of its own (chunked, never cut).
    for (const { path, text } of nestedTexts(item.fields, (key) => !shown(key))) {
      const label = humanize(path.join(" "));
      if (text.length <= MAX_FIELD_CHARS && !text.includes("\n")) push(label, text);
      else blocks.push(...textToBlocks(`${label}: ${text}`, unit === undefined ? {} : { unit }));
    }
  } else {
    for (const [key, value] of Object.entries(item.fields)) {
      if (!shown(key)) continue;
      const text = fieldText(value);
      if (text !== undefined) push(humanize(key), text);
    }
  }
  if (item.description !== null && item.description.trim().length > 0) push("Description", item.description.trim());
  return blocks;
}

function commentHeader(index: number, author: Participant | undefined, createdAt: string | undefined): string {
  const by = author === undefined ? "" : ` by ${participantText(author)}`;
  const at = createdAt === undefined ? "" : ` (${createdAt})`;
  return `Comment ${index + 1}${by}${at}:`;
}

/**
 * Renders an app item as a document: header fields and body form one unit (one email, message or
 * ticket), except knowledge-base pages whose Markdown sections chunk on their own; every comment
 * and every attachment is a separate unit so each one is retrievable by itself.
 */
export function renderAppItem(item: NormalizedAppItem): ParsedDocument {
  const isPage = item.kind === "knowledge_base";
  const unit = isPage ? undefined : "item";
  const blocks: DraftBlock[] = headerBlocks(item, unit);
  if (item.body.trim().length > 0) {
    blocks.push(...(isPage ? markdownToBlocks(item.body).blocks : textToBlocks(item.body, unit === undefined ? {} : { unit })));
  }
  item.comments.forEach((comment, i) => {
    const block: DraftBlock = {
      kind: "comment",
      text: `${commentHeader(i, comment.author, comment.createdAt)}\n${comment.body.trim()}`,
      sectionPath: [],
      unit: `comment:${comment.id ?? i}`,
    };
    if (comment.id !== undefined) block.commentId = comment.id;
    if (comment.author !== undefined) block.author = comment.author.display;
    if (comment.createdAt !== undefined) block.createdAt = comment.createdAt;
    blocks.push(block);
  });
  item.attachments.forEach((attachment, i) => {
    const lines = [`Attachment: ${attachment.name}`];
    if (attachment.text !== undefined) lines.push(attachment.text.trim());
    else if (attachment.url !== undefined) lines.push(attachment.url);
    const block: DraftBlock = { kind: "attachment", name: attachment.name, text: lines.join("\n"), sectionPath: [], unit: `attachment:${i}` };
    if (attachment.mimeType !== undefined) block.mimeType = attachment.mimeType;
    if (attachment.url !== undefined) block.url = attachment.url;
    blocks.push(block);
  });
  return buildDocument({
    format: "app_item",
    title: item.title,
    blocks,
    metadata: { kind: item.kind, ...(item.provider === null ? {} : { provider: item.provider }) },
  });
}
