import { positionAt, syntaxError } from "../errors.js";
import { PUNCTUATION } from "./token.js";
import type { Token } from "./token.js";

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;
/** Dashes and arrows that look like `-` but are not Cypher operators; rejected with a precise detail. */
const LOOKALIKE = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D\u27E8\u27E9\u3008\u3009]/u;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (detail: string, reason: string, at: number) => syntaxError(detail, reason, positionAt(source, at));
  while (i < source.length) {
    const c = source[i] ?? "";
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const close = source.indexOf("*/", i + 2);
      if (close < 0) throw fail("UnexpectedSyntax", "unterminated comment", i);
      i = close + 2;
      continue;
    }
    const start = i;
    if (IDENT_START.test(c)) {
      i++;
      while (i < source.length && IDENT_PART.test(source[i] ?? "")) i++;
      tokens.push({ type: "ident", text: source.slice(start, i), start, end: i });
      continue;
    }
    if (c === "`") {
      let name = "";
      i++;
      for (;;) {
        if (i >= source.length) throw fail("UnexpectedSyntax", "unterminated quoted name", start);
        if (source[i] === "`") {
          if (source[i + 1] === "`") {
            name += "`";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        name += source[i];
        i++;
      }
      tokens.push({ type: "quoted", text: name, start, end: i });
      continue;
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(source[i + 1] ?? ""))) {
      i = lexNumber(source, i, tokens, fail);
      continue;
    }
    if (c === "'" || c === '"') {
      i = lexString(source, i, tokens, fail);
      continue;
    }
    if (c === "$") {
      i++;
      if (source[i] === "`") {
        const close = source.indexOf("`", i + 1);
        if (close < 0) throw fail("UnexpectedSyntax", "unterminated parameter name", start);
        tokens.push({ type: "param", text: source.slice(i + 1, close), start, end: close + 1 });
        i = close + 1;
        continue;
      }
      while (i < source.length && IDENT_PART.test(source[i] ?? "")) i++;
      if (i === start + 1) throw fail("UnexpectedSyntax", "expected a parameter name after $", start);
      tokens.push({ type: "param", text: source.slice(start + 1, i), start, end: i });
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
    if (punct !== undefined) {
      i += punct.length;
      tokens.push({ type: "punct", text: punct, start, end: i });
      continue;
    }
    if (LOOKALIKE.test(c)) throw fail("InvalidUnicodeCharacter", `invalid character '${c}'`, i);
    throw fail("UnexpectedSyntax", `unexpected character '${c}'`, i);
  }
  tokens.push({ type: "eof", text: "", start: source.length, end: source.length });
  return tokens;
}

type Fail = (detail: string, reason: string, at: number) => Error;

function lexNumber(source: string, i: number, tokens: Token[], fail: Fail): number {
  const start = i;
  if (source[i] === "0" && (source[i + 1] === "x" || source[i + 1] === "X")) {
    i += 2;
    while (/[0-9a-zA-Z]/.test(source[i] ?? "")) i++;
    const text = source.slice(start, i);
    if (!/^0[xX][0-9a-fA-F]+$/.test(text)) throw fail("InvalidNumberLiteral", `invalid hexadecimal literal ${text}`, start);
    tokens.push({ type: "int", text, start, end: i });
    return i;
  }
  if (source[i] === "0" && source[i + 1] === "o") {
    i += 2;
    while (/[0-9a-zA-Z]/.test(source[i] ?? "")) i++;
    const text = source.slice(start, i);
    if (!/^0o[0-7]+$/.test(text)) throw fail("InvalidNumberLiteral", `invalid octal literal ${text}`, start);
    tokens.push({ type: "int", text, start, end: i });
    return i;
  }
  let isFloat = false;
  while (/[0-9]/.test(source[i] ?? "")) i++;
  if (source[i] === "." && /[0-9]/.test(source[i + 1] ?? "")) {
    isFloat = true;
    i++;
    while (/[0-9]/.test(source[i] ?? "")) i++;
  }
  if ((source[i] === "e" || source[i] === "E") && /[-+0-9]/.test(source[i + 1] ?? "")) {
    const save = i;
    i++;
    if (source[i] === "-" || source[i] === "+") i++;
    if (/[0-9]/.test(source[i] ?? "")) {
      isFloat = true;
      while (/[0-9]/.test(source[i] ?? "")) i++;
    } else i = save;
  }
  if (IDENT_START.test(source[i] ?? "") || /[0-9]/.test(source[i] ?? "")) {
    while (IDENT_PART.test(source[i] ?? "")) i++;
    tokens.push({ type: "badNumber", text: source.slice(start, i), start, end: i });
    return i;
  }
  tokens.push({ type: isFloat ? "float" : "int", text: source.slice(start, i), start, end: i });
  return i;
}

const ESCAPES: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function lexString(source: string, i: number, tokens: Token[], fail: Fail): number {
  const start = i;
  const quote = source[i];
  let value = "";
  i++;
  for (;;) {
    if (i >= source.length) throw fail("UnexpectedSyntax", "unterminated string literal", start);
    const c = source[i] ?? "";
    if (c === quote) {
      i++;
      break;
    }
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    const e = source[i + 1] ?? "";
    const simple = ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    if (e === "u" || e === "U") {
      const len = e === "u" ? 4 : 8;
      const hex = source.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw fail("InvalidUnicodeLiteral", `invalid unicode escape \\${e}${hex}`, i);
      value += String.fromCodePoint(parseInt(hex, 16));
      i += 2 + len;
      continue;
    }
    // Unknown escapes are kept verbatim, as Neo4j does.
    value += c + e;
    i += 2;
  }
  tokens.push({ type: "string", text: value, start, end: i });
  return i;
}
