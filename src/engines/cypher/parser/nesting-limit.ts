import { positionAt, syntaxError } from "../errors.js";
import type { Query } from "../ast/query.js";

/**
 * Nesting budgets, checked before anything recurses over the query: recursive descent (parentheses,
 * lists, maps, NOT, unary minus, subqueries) is cut at MAX_PARSE_NESTING levels while parsing; the
 * finished tree, where long operator chains (`a + b + c ...`, `x.a.b.c ...`) nest without any
 * recursion in the parser, is cut at MAX_TREE_DEPTH before the semantic pass, planner and
 * evaluator walk it recursively. Both leave ample stack on a 1 MB main-thread stack.
 */
export const MAX_PARSE_NESTING = 200;
const MAX_TREE_DEPTH = 1_000;

/** Throws SyntaxError/NestingTooDeep when the tree of syntax nodes is deeper than MAX_TREE_DEPTH. */
export function checkTreeDepth(query: Query, source: string): void {
  // Iterative on purpose: the point is to measure depth without recursion.
  const stack: [unknown, number][] = [[query, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [value, depth] = item;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v !== null && typeof v === "object") stack.push([v, depth]);
      continue;
    }
    if (value instanceof Map) continue;
    const node = value as Record<string, unknown>;
    const isNode = typeof node.kind === "string";
    const next = isNode ? depth + 1 : depth;
    if (next > MAX_TREE_DEPTH) {
      const span = node.span as { start: number } | undefined;
      throw syntaxError(
        "NestingTooDeep",
        `query is nested too deeply (more than ${MAX_TREE_DEPTH} levels of operators and expressions)`,
        positionAt(source, span?.start ?? 0),
      );
    }
    for (const [k, v] of Object.entries(node)) if (k !== "span" && v !== null && typeof v === "object") stack.push([v, next]);
  }
}
