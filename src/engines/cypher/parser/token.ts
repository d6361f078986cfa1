/** `badNumber` is a digit run glued to letters (`12ab`); the parser decides how to report it. */
export type TokenType = "ident" | "quoted" | "int" | "float" | "string" | "param" | "punct" | "badNumber" | "eof";

export interface Token {
  readonly type: TokenType;
  /** Raw source text of the token (for idents: the name; for strings: the decoded value). */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Multi-character punctuation, longest first so that the lexer can match greedily. */
export const PUNCTUATION = [
  "..",
  "<>",
  "!=",
  "<=",
  ">=",
  "=~",
  "+=",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  ":",
  ";",
  "|",
  "+",
  "-",
  "*",
  "/",
  "%",
  "^",
  "=",
  "<",
  ">",
  "$",
];
