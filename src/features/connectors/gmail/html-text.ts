import { decodeEntities } from "../../../engines/documents/parse/simple-html.js";

// Mail HTML comes from anyone who can send the mailbox a message, so this reads it in one pass.
// The regular expressions it replaces (`<[^>]+>`, `<(script|style|head)[\s\S]*?<\/\1>`,
// `[ \t]+\n`) backtrack quadratically: 200 kB of "<" took 91 s, of "<br" 57 s.

/** Elements dropped with their content. */
const HIDDEN = new Set(["script", "style", "head"]);
/** Tags read as a line break: `<br>` and the ends of blocks. */
const BREAKS = new Set(["br", "/p", "/div", "/li", "/tr", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6"]);

/** The tag's name (lower case, "/" kept for an end tag) of the tag text between < and >. */
function tagName(inner: string): string {
  const m = /^\/?[A-Za-z][A-Za-z0-9]*/.exec(inner);
  return m === null ? "" : m[0].toLowerCase();
}

/** Drops spaces and tabs before each line break. */
function trimLineEnds(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      let end = line.length;
      while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
      return line.slice(0, end);
    })
    .join("\n");
}

/**
 * Where the end tag `</name>` (any case) that closes an element opened before `from` ends, or -1.
 * `unclosed` remembers names with no end tag after some point, so that a mail of a thousand
 * `<script>`s without one is not searched to its end a thousand times.
 */
function endOfElement(html: string, name: string, from: number, unclosed: Set<string>): number {
  if (unclosed.has(name)) return -1;
  for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
    const after = html[at + 2 + name.length];
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name && (after === ">" || (after !== undefined && /\s/.test(after)))) {
      const close = html.indexOf(">", at);
      if (close >= 0) return close + 1;
    }
  }
  unclosed.add(name);
  return -1;
}

/** Mail HTML as text: no scripts, styles or head, block tags as line breaks, entities decoded. */
export function mailHtmlText(html: string): string {
  let out = "";
  let at = 0;
  const unclosed = new Set<string>();
  while (at < html.length) {
    const open = html.indexOf("<", at);
    const close = open < 0 ? -1 : html.indexOf(">", open + 1);
    // A "<" with no ">" after it, or "<>", is text, as it was for `<[^>]+>`.
    if (open < 0 || close < 0) {
      out += html.slice(at);
      break;
    }
    out += html.slice(at, open);
    if (close === open + 1) {
      out += "<>";
      at = close + 1;
      continue;
    }
    const name = tagName(html.slice(open + 1, Math.min(close, open + 12)));
    at = close + 1;
    if (HIDDEN.has(name)) {
      // The element and its content go; without an end tag only the tag itself does.
      const end = endOfElement(html, name, at, unclosed);
      if (end >= 0) at = end;
    } else if (BREAKS.has(name)) out += "\n";
  }
  return trimLineEnds(decodeEntities(out))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
