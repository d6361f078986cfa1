import type { Token } from "marked";
import { decodeEntities } from "./simple-html.js";

// marked's Token union includes a generic token with `any` fields; read them as unknown.
function stringField(token: Token, name: "text" | "raw"): string {
  const value: unknown = (token as Record<string, unknown>)[name];
  return typeof value === "string" ? value : "";
}

function childTokens(token: Token): Token[] | undefined {
  const value: unknown = (token as Record<string, unknown>).tokens;
  return Array.isArray(value) ? (value as Token[]) : undefined;
}

/** Plain text of inline Markdown tokens: formatting dropped, link text kept, images by alt text. */
export function inlineText(tokens: Token[] | undefined, fallback = ""): string {
  if (tokens === undefined) return fallback;
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "br":
        out += "\n";
        break;
      case "html":
        break;
      case "image":
      case "codespan":
      case "escape":
        out += stringField(token, "text");
        break;
      case "text": {
        // Entity references in Markdown prose render as characters; code spans keep them literally.
        const nested = childTokens(token);
        out += nested === undefined ? decodeEntities(stringField(token, "text")) : inlineText(nested);
        break;
      }
      default: {
        const nested = childTokens(token);
        out += nested === undefined ? stringField(token, "text") || stringField(token, "raw") : inlineText(nested);
      }
    }
  }
  return out;
}
