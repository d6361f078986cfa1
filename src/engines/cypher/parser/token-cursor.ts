import { positionAt, syntaxError } from "../errors.js";
import type { CypherError } from "../errors.js";
import type { Span } from "../ast/span.js";
import { MAX_PARSE_NESTING } from "./nesting-limit.js";
import type { Token } from "./token.js";

/** Position bookkeeping shared by the parser layers: lookahead, keyword matching, errors with positions. */
export class TokenCursor {
  protected pos = 0;
  private depth = 0;

  constructor(
    protected readonly source: string,
    protected readonly tokens: readonly Token[],
  ) {}

  /** Runs one level of recursive descent; past MAX_PARSE_NESTING levels the query is refused. */
  protected nested<T>(parse: () => T): T {
    if (this.depth >= MAX_PARSE_NESTING) {
      throw this.errorAt(
        this.peek().start,
        "NestingTooDeep",
        `query is nested too deeply (more than ${MAX_PARSE_NESTING} levels of parentheses, lists, maps, NOT, unary operators or subqueries)`,
      );
    }
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  protected peek(offset = 0): Token {
    const t = this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
    if (t === undefined) throw new Error("token stream is empty");
    return t;
  }

  protected next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  protected get lastEnd(): number {
    return this.tokens[this.pos - 1]?.end ?? 0;
  }

  protected span(start: number): Span {
    return { start, end: this.lastEnd };
  }

  /** Keywords are unquoted identifiers compared case-insensitively. */
  protected isKeyword(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === "ident" && t.text.toUpperCase() === word;
  }

  protected acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.next();
    return true;
  }

  protected expectKeyword(word: string): void {
    if (!this.acceptKeyword(word)) throw this.unexpected(`expected ${word}`);
  }

  protected isPunct(p: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === "punct" && t.text === p;
  }

  protected acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.next();
    return true;
  }

  protected expectPunct(p: string): void {
    if (!this.acceptPunct(p)) throw this.unexpected(`expected '${p}'`);
  }

  /** A symbolic name: an identifier (keywords allowed) or a backtick-quoted name. */
  protected isName(offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === "ident" || t.type === "quoted";
  }

  protected expectName(what = "a name"): string {
    const t = this.peek();
    if (t.type !== "ident" && t.type !== "quoted") throw this.unexpected(`expected ${what}`);
    this.next();
    return t.text;
  }

  protected unexpected(reason: string, detail = "UnexpectedSyntax"): CypherError {
    const t = this.peek();
    const found = t.type === "eof" ? "end of input" : `'${this.source.slice(t.start, t.end)}'`;
    return syntaxError(detail, `${reason}, found ${found}`, positionAt(this.source, t.start));
  }

  protected errorAt(offset: number, detail: string, reason: string): CypherError {
    return syntaxError(detail, reason, positionAt(this.source, offset));
  }
}
