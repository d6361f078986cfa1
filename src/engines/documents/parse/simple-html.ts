// A small HTML reader for mammoth's output only: mammoth emits well-formed, escaped markup from a
// closed set of tags, so a tokenizer plus a tag stack is enough; general HTML is out of scope.

export interface HtmlElement {
  tag: string;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

const VOID_TAGS = new Set(["br", "img", "hr"]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export function parseSimpleHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: "#root", children: [] };
  const stack: HtmlElement[] = [root];
  const pattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(\/?)>|([^<]+)/g;
  for (const match of html.matchAll(pattern)) {
    const top = stack[stack.length - 1] ?? root;
    const [, closing, rawTag, selfClosing, text] = match;
    if (text !== undefined) {
      top.children.push(decodeEntities(text));
      continue;
    }
    const tag = (rawTag ?? "").toLowerCase();
    if (closing === "/") {
      // Pop to the matching open tag; a stray close tag is ignored.
      const index = stack.map((e) => e.tag).lastIndexOf(tag);
      if (index > 0) stack.length = index;
      continue;
    }
    const element: HtmlElement = { tag, children: [] };
    top.children.push(element);
    if (selfClosing !== "/" && !VOID_TAGS.has(tag)) stack.push(element);
  }
  return root;
}

/** Text content; `<br>` becomes a newline. */
export function textContent(node: HtmlNode): string {
  if (typeof node === "string") return node;
  if (node.tag === "br") return "\n";
  return node.children.map(textContent).join("");
}
