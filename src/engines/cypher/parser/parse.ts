import type { Query } from "../ast/query.js";
import { ClauseParser } from "./clause-parser.js";
import { tokenize } from "./lexer.js";
import { checkTreeDepth } from "./nesting-limit.js";

/** Source text -> AST. Throws a CypherError (SyntaxError, compile time) with a position. */
export function parseQuery(source: string): Query {
  const query = new ClauseParser(source, tokenize(source)).parseQuery();
  checkTreeDepth(query, source);
  return query;
}
