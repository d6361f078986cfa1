import { parseQuery } from "../../engines/cypher/index.js";
import type { Clause } from "../../engines/cypher/ast/clauses.js";
import type { Query } from "../../engines/cypher/ast/query.js";

function clauseWrites(c: Clause): boolean {
  switch (c.kind) {
    case "Create":
    case "Set":
    case "Remove":
    case "Delete":
    case "CreateIndex":
    case "DropIndex":
      return true;
    case "CallSubquery":
      return queryWrites(c.body);
    // MERGE only writes when its pattern is missing; the optimistic read finds out.
    case "Merge":
    case "Match":
    case "Unwind":
    case "With":
    case "Return":
      return false;
  }
}

function queryWrites(q: Query): boolean {
  const parts = q.kind === "Union" ? q.parts : [q];
  return parts.some((p) => p.clauses.some(clauseWrites));
}

/**
 * True when the query has an unconditional update clause (CREATE, SET, REMOVE, DELETE, index
 * DDL), at any depth of CALL subqueries and UNION parts. Such a query goes straight to the
 * locked write path instead of running its read part once optimistically and again under the
 * lock (for bulk `UNWIND ... MATCH ... CREATE` loads that would double the work). Expressions
 * cannot write, so clauses are all there is to look at. A query that does not parse is treated
 * as a read: the read path reports the engine's error.
 */
export function certainlyWrites(query: string): boolean {
  try {
    return queryWrites(parseQuery(query));
  } catch {
    // A query that does not parse is treated as a read: the read path reports the engine's error.
    return false;
  }
}
