import type { AppItemKind, Participant, ParticipantRole } from "./app-item-types.js";
import { angleAddress } from "./angle-address.js";
import { isObject } from "./json-reader.js";
import type { JsonObject } from "./json-reader.js";

const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;

function make(role: ParticipantRole, parts: Omit<Participant, "role" | "display">): Participant | undefined {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(parts)) if (typeof v === "string" && v.trim().length > 0) clean[k] = v.trim();
  const display = clean.name ?? clean.email ?? clean.handle ?? clean.id;
  if (display === undefined) return undefined;
  return { role, ...clean, display };
}

/** `"Ada Lovelace <ada@example.com>"`, `"ada@example.com"`, `"@ada"` or a plain name/handle. */
function participantFromString(role: ParticipantRole, raw: string): Participant | undefined {
  const text = raw.trim();
  const angle = angleAddress(text);
  if (angle !== null) {
    const name = angle.name.trim().replace(/^"|"$/g, "");
    return make(role, { name, email: angle.address.trim().toLowerCase() });
  }
  if (EMAIL.test(text)) return make(role, { email: text.toLowerCase() });
  if (text.startsWith("@")) return make(role, { handle: text.slice(1) });
  // Opaque account ids (Slack U0123ABC) are ids, not names.
  if (/^[A-Z0-9]{8,}$/.test(text)) return make(role, { id: text });
  return make(role, { name: text });
}

function participantFromObject(role: ParticipantRole, obj: JsonObject): Participant | undefined {
  const str = (key: string): string | undefined => {
    const v = obj[key];
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
  };
  const email = str("email") ?? str("address");
  return make(role, {
    name: str("name") ?? str("display_name") ?? str("real_name") ?? str("full_name"),
    email: email?.toLowerCase(),
    handle: str("handle") ?? str("username") ?? str("login"),
    id: str("id") ?? str("user_id"),
  });
}

/** Splits `a@x.com, "Doe, Jane" <j@y.com>; b@z.com` at separators outside quotes and angle brackets. */
function splitAddressList(value: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  let angled = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "<" && !quoted) angled = true;
    else if (ch === ">" && !quoted) angled = false;
    if ((ch === "," || ch === ";") && !quoted && !angled) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.filter((p) => p.trim().length > 0);
}

/** A participant value: string (comma-separated lists allowed for email roles), object, or array of those. */
export function participantsFrom(role: ParticipantRole, value: unknown): Participant[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => participantsFrom(role, v));
  if (isObject(value)) {
    const p = participantFromObject(role, value);
    return p === undefined ? [] : [p];
  }
  if (typeof value !== "string") return [];
  const pieces = role === "recipient" || role === "cc" || role === "bcc" ? splitAddressList(value) : [value];
  return pieces.flatMap((piece) => {
    const p = participantFromString(role, piece);
    return p === undefined ? [] : [p];
  });
}

/** Slack `<@U123>` / `<@U123|ada>` and GitHub/Linear style `@ada` mentions; email addresses are skipped. */
function mentionsIn(text: string): Participant[] {
  const found: Participant[] = [];
  // A label never holds "<" (Slack escapes it): excluding it keeps each attempt to the next "<",
  // where `[^>]+` scanned to the end of the text from every "<@" (quadratic; 80 kB took 3.6 s).
  for (const m of text.matchAll(/<@([A-Z0-9]+)(?:\|([^<>]+))?>/g)) {
    const p = make("mention", { id: m[1], handle: m[2] });
    if (p !== undefined) found.push(p);
  }
  for (const m of text.replace(/<@[^<>]+>/g, " ").matchAll(/(?<![\w.@])@([A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?)/g)) {
    const p = make("mention", { handle: m[1] });
    if (p !== undefined) found.push(p);
  }
  return found;
}

/** Which fields hold which participants, per kind. Aliases cover the providers' own spellings. */
const ROLE_FIELDS: Record<AppItemKind, Array<[ParticipantRole, string[]]>> = {
  email: [
    ["sender", ["from", "sender"]],
    ["recipient", ["to"]],
    ["cc", ["cc"]],
    ["bcc", ["bcc"]],
  ],
  message: [
    ["sender", ["user", "author", "sender", "from"]],
    ["recipient", ["to", "recipients"]],
  ],
  ticket: [
    ["assignee", ["assignee", "assignees"]],
    ["reporter", ["reporter", "creator", "created_by"]],
    ["author", ["author"]],
  ],
  knowledge_base: [["author", ["author", "created_by", "last_edited_by", "owner"]]],
  comment: [["author", ["author", "user", "created_by"]]],
  custom: [
    ["author", ["author", "created_by", "user"]],
    ["sender", ["from", "sender"]],
    ["recipient", ["to"]],
    ["assignee", ["assignee"]],
  ],
};

function key(p: Participant): string {
  return `${p.role}\u0000${p.email ?? ""}\u0000${p.id ?? ""}\u0000${p.handle ?? ""}\u0000${p.email || p.id || p.handle ? "" : (p.name ?? "")}`;
}

export function dedupeParticipants(list: Participant[]): Participant[] {
  const seen = new Map<string, Participant>();
  for (const p of list) if (!seen.has(key(p))) seen.set(key(p), p);
  return [...seen.values()];
}

export function participantsOfFields(kind: AppItemKind, fields: JsonObject, body: string): Participant[] {
  const found: Participant[] = [];
  for (const [role, names] of ROLE_FIELDS[kind]) {
    for (const name of names) found.push(...participantsFrom(role, fields[name]));
  }
  found.push(...participantsFrom("mention", fields.mentions), ...mentionsIn(body));
  return dedupeParticipants(found);
}
