/**
 * Cypher's `=~` follows java.util.regex (Pattern.matches); we run it on RE2 (re2js), whose matching
 * time is linear in the input. This module rewrites a Java pattern into RE2 syntax with the same
 * meaning, and refuses what RE2 cannot run or would read differently instead of matching silently
 * otherwise:
 *
 * - refused as unsupported: backreferences, lookahead, atomic groups, possessive quantifiers,
 *   comments mode `(?x)`, `(?U)`, class unions `[a[b]]` and intersections `[a&&b]`, `\Z`, Java-only
 *   property names (`\p{javaLowerCase}`, `\p{IsAlphabetic}`, blocks `\p{InGreek}`);
 * - rewritten: `.` without `(?s)` excludes Java's line terminators (\n \r \u0085 \u2028 \u2029, or
 *   \n alone under `(?d)`); `\s` includes \x0B as Java's does; `\h \H \v \V \R \e \cX \0oct \uhhhh`
 *   and the POSIX names (`\p{Alpha}`) become RE2 classes; `\Q...\E` becomes escaped literals;
 *   `(?s)`, `(?d)` and `(?u)` are applied here, `(?i)` and `(?m)` passed on;
 * - kept: lookbehind (re2js runs captureless lookbehind in linear time).
 *
 * Known differences that remain: `(?i)` folds Unicode case (Java: ASCII unless `(?u)`), `(?m)` lines
 * end at \n only, and repetition counts above 1000 are refused (RE2's limit).
 *
 * Pure: returns a value. `size` is an upper estimate of the compiled program's instruction count,
 * taken before compiling, so that `x{1000}` repeated a thousand times is refused before RE2 builds a
 * million instructions.
 */
export type JavaRegexTranslation =
  { readonly ok: true; readonly source: string; readonly size: number } | { readonly ok: false; readonly unsupported: boolean; readonly reason: string };

type Range = readonly [number, number];

const MAX_CODE_POINT = 0x10ffff;
const LINE_TERMINATORS: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x85, 0x85],
  [0x2028, 0x2029],
];
const JAVA_SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const HORIZONTAL_SPACE: readonly Range[] = [
  [0x09, 0x09],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x180e, 0x180e],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const VERTICAL_SPACE: readonly Range[] = [
  [0x0a, 0x0d],
  [0x85, 0x85],
  [0x2028, 0x2029],
];
const RANGE_ESCAPES: Readonly<Record<string, readonly Range[]>> = { s: JAVA_SPACE, h: HORIZONTAL_SPACE, v: VERTICAL_SPACE };

/** Java's POSIX property names (US-ASCII only, as in Java) and RE2's names for them. */
const POSIX_NAMES: Readonly<Record<string, string>> = {
  Lower: "lower",
  Upper: "upper",
  ASCII: "ascii",
  Alpha: "alpha",
  Digit: "digit",
  Alnum: "alnum",
  Punct: "punct",
  Graph: "graph",
  Print: "print",
  Blank: "blank",
  Cntrl: "cntrl",
  XDigit: "xdigit",
  Space: "space",
};

/** Java's binary Unicode properties (\p{IsAlphabetic}); RE2 knows categories and scripts only. */
const JAVA_BINARY_PROPERTIES =
  /^(Alphabetic|Ideographic|Letter|Lowercase|Uppercase|Titlecase|Punctuation|Control|White_?Space|Digit|Hex_?Digit|Join_?Control|Noncharacter_?Code_?Point|Assigned|Emoji\w*)$/i;

/** A code point as RE2 text that means that character alone, inside or outside a class. */
const hexChar = (cp: number): string => `\\x{${cp.toString(16)}}`;

function classBody(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? hexChar(lo) : `${hexChar(lo)}-${hexChar(hi)}`)).join("");
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Thrown inside the translator only, and turned into a value by translateJavaRegex. */
class Refusal extends Error {
  constructor(
    readonly unsupported: boolean,
    readonly reason: string,
  ) {
    super(reason);
  }
}
const unsupported = (reason: string): Refusal => new Refusal(true, reason);
const invalid = (reason: string): Refusal => new Refusal(false, reason);

interface Frame {
  dotAll: boolean;
  unixLines: boolean;
  size: number;
}

/** Rewrites one Java pattern; see the module comment for what is kept, rewritten and refused. */
export function translateJavaRegex(pattern: string): JavaRegexTranslation {
  try {
    return new Translator(pattern).run();
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, unsupported: e.unsupported, reason: e.reason };
    throw e;
  }
}

class Translator {
  private i = 0;
  private out = "";
  private readonly frames: Frame[] = [{ dotAll: false, unixLines: false, size: 0 }];
  /** Estimated size of the last quantifiable atom; 0 when a quantifier here would apply to nothing. */
  private last = 0;

  constructor(private readonly p: string) {}

  run(): JavaRegexTranslation {
    while (this.i < this.p.length) this.step();
    const size = this.frames.reduce((sum, f) => sum + f.size, 0);
    return { ok: true, source: this.out, size };
  }

  private get frame(): Frame {
    const f = this.frames[this.frames.length - 1];
    if (f === undefined) throw new Error("regex translator: no frame");
    return f;
  }

  private atom(text: string, size = 1): void {
    this.out += text;
    this.frame.size += size;
    this.last = size;
  }

  private step(): void {
    const c = this.p[this.i] ?? "";
    switch (c) {
      case "\\":
        this.atomEscape();
        return;
      case "[":
        this.i++;
        this.atom(this.characterClass());
        return;
      case "(":
        this.openGroup();
        return;
      case ")":
        this.closeGroup();
        return;
      case ".":
        this.i++;
        this.atom(this.frame.dotAll ? "(?s:.)" : this.frame.unixLines ? "[^\\n]" : `[^${classBody(LINE_TERMINATORS)}]`);
        return;
      case "*":
      case "+":
      case "?":
        this.i++;
        this.quantifier(c, 2);
        return;
      case "{": {
        const m = /^\{(\d{1,9})(,(\d{0,9}))?\}/.exec(this.p.slice(this.i, this.i + 22));
        if (m === null) throw invalid(`illegal repetition near index ${this.i}`);
        this.i += m[0].length;
        const min = Number(m[1]);
        const max = m[3] === undefined ? min : m[3] === "" ? min + 1 : Number(m[3]);
        this.quantifier(m[0], 2 * Math.max(min, max, 1));
        return;
      }
      case "|":
      case "^":
      case "$":
        this.i++;
        this.out += c;
        this.frame.size += 1;
        this.last = 0;
        return;
      default: {
        const cp = this.p.codePointAt(this.i) ?? 0;
        this.i += cp > 0xffff ? 2 : 1;
        this.atom(String.fromCodePoint(cp));
      }
    }
  }

  /** `*`, `+`, `?` or `{n,m}` just read as `text`; the atom before it is copied about `factor` times. */
  private quantifier(text: string, factor: number): void {
    const next = this.p[this.i];
    if (next === "+") throw unsupported("possessive quantifiers (such as *+)");
    const lazy = next === "?" ? "?" : "";
    this.i += lazy.length;
    this.out += text + lazy;
    this.frame.size += this.last * (factor - 1) + 1;
    this.last = 0;
  }

  private openGroup(): void {
    const rest = this.p.slice(this.i, this.i + 3);
    const outer = this.frame;
    const inner = (dotAll: boolean, unixLines: boolean): void => {
      this.frames.push({ dotAll, unixLines, size: 0 });
      this.last = 0;
    };
    if (!rest.startsWith("(?")) {
      this.i++;
      this.out += "(";
      inner(outer.dotAll, outer.unixLines);
      return;
    }
    if (rest === "(?=" || rest === "(?!") throw unsupported("lookahead ((?= and (?!)");
    if (rest === "(?>") throw unsupported("atomic groups ((?>...))");
    if (this.p.startsWith("(?<=", this.i) || this.p.startsWith("(?<!", this.i)) {
      this.out += this.p.slice(this.i, this.i + 4);
      this.i += 4;
      inner(outer.dotAll, outer.unixLines);
      return;
    }
    if (rest === "(?<") {
      const m = /^\(\?<([A-Za-z][A-Za-z0-9]*)>/.exec(this.p.slice(this.i, this.i + 200));
      if (m === null) throw invalid(`invalid named group near index ${this.i}`);
      this.i += m[0].length;
      this.out += m[0];
      inner(outer.dotAll, outer.unixLines);
      return;
    }
    const m = /^\(\?([A-Za-z]*)(?:-([A-Za-z]*))?([:)])/.exec(this.p.slice(this.i, this.i + 40));
    if (m === null) throw invalid(`unknown group construct near index ${this.i}`);
    this.i += m[0].length;
    const on = m[1] ?? "";
    const off = m[2] ?? "";
    for (const f of on + off) {
      if (f === "x") throw unsupported("comments mode ((?x))");
      if (f === "U") throw unsupported("Unicode character classes ((?U))");
      if (!"imsdu".includes(f)) throw invalid(`unknown inline flag '${f}'`);
    }
    const passOn = (flags: string): string => [...flags].filter((f) => f === "i" || f === "m").join("");
    const onRe2 = passOn(on);
    const offRe2 = passOn(off);
    const flags = onRe2 + (offRe2 === "" ? "" : `-${offRe2}`);
    const dotAll = on.includes("s") ? true : off.includes("s") ? false : outer.dotAll;
    const unixLines = on.includes("d") ? true : off.includes("d") ? false : outer.unixLines;
    if (m[3] === ")") {
      // (?flags) sets them up to the end of the enclosing group, in RE2 as in Java.
      if (flags !== "") this.out += `(?${flags})`;
      outer.dotAll = dotAll;
      outer.unixLines = unixLines;
      this.last = 0;
      return;
    }
    this.out += `(?${flags}:`;
    inner(dotAll, unixLines);
  }

  private closeGroup(): void {
    this.i++;
    const closed = this.frames.length > 1 ? this.frames.pop() : undefined;
    if (closed === undefined) throw invalid(`unmatched closing ')' near index ${this.i - 1}`);
    this.atom(")", closed.size + 2);
  }

  /** An escape outside a class: `\` at this.i. */
  private atomEscape(): void {
    const e = this.p[this.i + 1];
    if (e === undefined) throw invalid("unexpected end of pattern after '\\'");
    if (e >= "1" && e <= "9") throw unsupported("backreferences (\\1 to \\9)");
    if (e === "k") throw unsupported("named backreferences (\\k<name>)");
    if (e === "Z") throw unsupported("\\Z (use $ or \\z)");
    if (e === "R") {
      this.i += 2;
      this.atom(`(?:\\x{d}\\x{a}|[${classBody(VERTICAL_SPACE)}])`, 4);
      return;
    }
    if (e === "Q") {
      this.atom(...this.quoted());
      return;
    }
    if (e === "E") {
      this.i += 2; // a \E without \Q is ignored, as in Java
      return;
    }
    const ranges = RANGE_ESCAPES[e.toLowerCase()];
    if (ranges !== undefined) {
      this.i += 2;
      this.atom(`[${classBody(e === e.toLowerCase() ? ranges : complement(ranges))}]`);
      return;
    }
    this.atom(this.commonEscape(false));
  }

  /** `\Q...\E` at this.i: the text between as escaped literals, and its size. */
  private quoted(): [string, number] {
    const start = this.i + 2;
    const end = this.p.indexOf("\\E", start);
    const text = this.p.slice(start, end < 0 ? this.p.length : end);
    this.i = end < 0 ? this.p.length : end + 2;
    let out = "";
    for (const ch of text) out += hexChar(ch.codePointAt(0) ?? 0);
    return [out, Math.max(1, [...text].length)];
  }

  /**
   * Escapes that mean the same inside and outside a class: single characters, \d \w \b and
   * friends, \p{...}. Consumes the escape and returns its RE2 text.
   */
  private commonEscape(inClass: boolean): string {
    const e = this.p[this.i + 1] ?? "";
    this.i += 2;
    switch (e) {
      case "u": {
        const cp = this.hex(4);
        // A surrogate pair written as two \u escapes is one character, as in Java.
        if (cp >= 0xd800 && cp <= 0xdbff && this.p.startsWith("\\u", this.i)) {
          const low = Number.parseInt(this.p.slice(this.i + 2, this.i + 6), 16);
          if (low >= 0xdc00 && low <= 0xdfff) {
            this.i += 6;
            return hexChar(0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00));
          }
        }
        return hexChar(cp);
      }
      case "x": {
        if (this.p[this.i] !== "{") return hexChar(this.hex(2));
        const close = this.p.indexOf("}", this.i);
        const digits = close < 0 ? "" : this.p.slice(this.i + 1, close);
        const cp = /^[0-9a-fA-F]{1,6}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
        if (cp < 0 || cp > MAX_CODE_POINT) throw invalid(`illegal hexadecimal escape near index ${this.i - 2}`);
        this.i = close + 1;
        return hexChar(cp);
      }
      case "0": {
        const m = /^(?:[0-3][0-7]{2}|[0-7]{1,2})/.exec(this.p.slice(this.i, this.i + 3));
        if (m === null) throw invalid(`illegal octal escape near index ${this.i - 2}`);
        this.i += m[0].length;
        return hexChar(Number.parseInt(m[0], 8));
      }
      case "c": {
        const ch = this.p.codePointAt(this.i);
        if (ch === undefined) throw invalid("illegal control escape at the end of the pattern");
        this.i += ch > 0xffff ? 2 : 1;
        return hexChar(ch ^ 64);
      }
      case "e":
        return hexChar(0x1b);
      case "a":
        return hexChar(0x07);
      case "p":
      case "P":
        return this.property(e === "P", inClass);
      case "t":
      case "n":
      case "r":
      case "f":
      case "d":
      case "D":
      case "w":
      case "W":
      case "b":
      case "B":
      case "A":
      case "z":
        return `\\${e}`;
      default: {
        if (/[A-Za-z]/.test(e)) throw invalid(`illegal or unsupported escape sequence \\${e} near index ${this.i - 2}`);
        // Backslash before any other character is that character, as in Java.
        const cp = this.p.codePointAt(this.i - 1) ?? 0;
        if (cp > 0xffff) this.i++;
        return hexChar(cp);
      }
    }
  }

  private hex(digits: number): number {
    const text = this.p.slice(this.i, this.i + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text)) throw invalid(`illegal hexadecimal escape near index ${this.i - 2}`);
    this.i += digits;
    return Number.parseInt(text, 16);
  }

  /** `\p{Name}` / `\pL` after the `\p` just read. */
  private property(negated: boolean, inClass: boolean): string {
    let name: string;
    if (this.p[this.i] === "{") {
      const close = this.p.indexOf("}", this.i);
      if (close < 0) throw invalid(`unclosed character family near index ${this.i - 2}`);
      name = this.p.slice(this.i + 1, close);
      this.i = close + 1;
    } else {
      name = this.p[this.i] ?? "";
      this.i++;
    }
    const posix = POSIX_NAMES[name];
    if (posix !== undefined) {
      const cls = `[:${negated ? "^" : ""}${posix}:]`;
      return inClass ? cls : `[${cls}]`;
    }
    // Java's \p{IsL}, \p{IsGreek}, \p{sc=Greek} and \p{gc=L} are RE2's \p{L} and \p{Greek}; RE2
    // validates the names left. Blocks and Java's binary properties have no RE2 equivalent.
    const re2Name = name.replace(/^(Is|sc=|script=|gc=|general_category=)/i, "");
    if (/^(java|In)/.test(name) || re2Name.includes("=") || JAVA_BINARY_PROPERTIES.test(re2Name)) {
      throw unsupported(`the character property \\p{${name}}`);
    }
    return `\\${negated ? "P" : "p"}{${re2Name}}`;
  }

  /** A class after its `[`; returns RE2 text for it, brackets included. */
  private characterClass(): string {
    const start = this.i - 1;
    let out = "[";
    if (this.p[this.i] === "^") {
      out += "^";
      this.i++;
    }
    let first = true;
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined) throw invalid(`unclosed character class near index ${start}`);
      if (c === "]" && !first) {
        this.i++;
        return `${out}]`;
      }
      first = false;
      if (c === "[") throw unsupported("unions of character classes ([a[b]]; write a literal [ in a class as \\[)");
      if (c === "&" && this.p[this.i + 1] === "&") throw unsupported("intersections of character classes ([a&&b])");
      if (c !== "\\") {
        const cp = this.p.codePointAt(this.i) ?? 0;
        this.i += cp > 0xffff ? 2 : 1;
        out += c === "-" ? "-" : hexChar(cp);
        continue;
      }
      const e = this.p[this.i + 1] ?? "";
      if (e === "Q") out += this.quoted()[0];
      else if (e === "E") this.i += 2;
      else if (RANGE_ESCAPES[e.toLowerCase()] !== undefined) {
        const ranges = RANGE_ESCAPES[e.toLowerCase()] ?? [];
        this.i += 2;
        out += classBody(e === e.toLowerCase() ? ranges : complement(ranges));
      } else if (e === "b" || e === "B" || e === "A" || e === "z" || e === "R" || e === "Z" || e === "k" || (e >= "1" && e <= "9")) {
        throw invalid(`illegal escape \\${e} in a character class near index ${this.i}`);
      } else out += this.commonEscape(true);
    }
  }
}
