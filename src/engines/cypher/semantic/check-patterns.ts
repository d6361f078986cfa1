import type { NodePattern, PatternPart, RelationshipPattern } from "../ast/patterns.js";
import type { ExprContext } from "./check-expression.js";
import { checkExpr, fail } from "./check-expression.js";
import type { VariableInfo } from "./scope.js";
import { NODE, PATH, REL, listOf } from "./static-type.js";

type MutableScope = Map<string, VariableInfo>;

export type PatternUse = "match" | "create" | "merge";

function exprContext(cx: ExprContext, scope: MutableScope): ExprContext {
  return { ...cx, scope, aggregates: false, inWhere: false };
}

function checkProperties(cx: ExprContext, scope: MutableScope, el: NodePattern | RelationshipPattern, use: PatternUse): void {
  const p = el.properties;
  if (p === null) return;
  if (p.kind === "Parameter" && use !== "create") {
    throw fail(cx, p, "InvalidParameterUse", "a parameter map cannot be used as a property filter here; use {key: $param.key}");
  }
  checkExpr(p, exprContext(cx, scope));
}

function isNodeLike(info: VariableInfo): boolean {
  return info.kind === "node" || (info.kind === "value" && (info.type.t === "any" || info.type.t === "node" || info.type.t === "null"));
}

/**
 * Declares and checks the variables of MATCH / CREATE / MERGE patterns. `clauseVars` holds the
 * names introduced earlier in the same clause (relationship reuse there is a uniqueness violation).
 */
export function checkPatternPart(part: PatternPart, use: PatternUse, cx: ExprContext, scope: MutableScope, clauseVars: Set<string>): void {
  if (part.shortest !== null) {
    throw fail(cx, part, "UnsupportedShortestPath", "shortestPath/allShortestPaths are only allowed in RETURN or WITH, not in MATCH patterns");
  }
  if (part.pathVariable !== null && scope.has(part.pathVariable)) {
    throw fail(cx, part, "VariableAlreadyBound", `variable \`${part.pathVariable}\` is already bound`);
  }
  const own = [...part.nodes.map((n) => n.variable), ...part.rels.map((r) => r.variable)];
  if (part.pathVariable !== null && own.includes(part.pathVariable)) {
    throw fail(cx, part, "VariableAlreadyBound", `variable \`${part.pathVariable}\` names both the path and one of its elements`);
  }
  const singleNode = part.rels.length === 0;
  for (const n of part.nodes) checkNode(n, use, singleNode, cx, scope, clauseVars);
  for (const r of part.rels) checkRel(r, use, cx, scope, clauseVars);
  if (part.pathVariable !== null) {
    scope.set(part.pathVariable, { kind: "path", type: PATH });
    clauseVars.add(part.pathVariable);
  }
}

function checkNode(n: NodePattern, use: PatternUse, singleNode: boolean, cx: ExprContext, scope: MutableScope, clauseVars: Set<string>): void {
  const name = n.variable;
  const existing = name === null ? undefined : scope.get(name);
  if (name !== null && existing !== undefined) {
    if (!isNodeLike(existing)) throw fail(cx, n, "VariableTypeConflict", `variable \`${name}\` is not a node`);
    if (use !== "match" && (n.labels.length > 0 || n.properties !== null || singleNode)) {
      throw fail(cx, n, "VariableAlreadyBound", `variable \`${name}\` is already bound and cannot be created again`);
    }
  }
  checkProperties(cx, scope, n, use);
  if (name !== null && existing === undefined) {
    scope.set(name, { kind: "node", type: NODE });
    clauseVars.add(name);
  }
}

function checkRel(r: RelationshipPattern, use: PatternUse, cx: ExprContext, scope: MutableScope, clauseVars: Set<string>): void {
  const name = r.variable;
  const existing = name === null ? undefined : scope.get(name);
  if (use !== "match") {
    if (existing !== undefined) {
      const detail = existing.kind === "rel" || existing.kind === "value" ? "VariableAlreadyBound" : "VariableTypeConflict";
      throw fail(cx, r, detail, `variable \`${name}\` is already bound`);
    }
    if (r.varLength !== null) throw fail(cx, r, "CreatingVarLength", "variable length relationships cannot be created");
    if (r.types.length !== 1) throw fail(cx, r, "NoSingleRelationshipType", "a relationship to create needs exactly one type");
    if (use === "create" && r.direction === "both") throw fail(cx, r, "RequiresDirectedRelationship", "only directed relationships can be created");
  } else if (name !== null && existing !== undefined) {
    const t = existing.type.t;
    if (existing.kind === "value" && t !== "any" && t !== "null" && t !== "rel" && !(t === "list" && r.varLength !== null)) {
      throw fail(cx, r, "VariableTypeConflict", `variable \`${name}\` is bound to a ${t}, not a relationship`);
    }
    if (existing.kind === "node" || existing.kind === "path") throw fail(cx, r, "VariableTypeConflict", `variable \`${name}\` is not a relationship`);
    if (clauseVars.has(name)) {
      if (existing.kind === "rel" && r.varLength === null)
        throw fail(cx, r, "RelationshipUniquenessViolation", `relationship \`${name}\` is used twice in one pattern`);
      throw fail(cx, r, "VariableTypeConflict", `variable \`${name}\` is used twice in one pattern`);
    }
    if ((existing.kind === "rel") !== (r.varLength === null) && existing.kind !== "value") {
      throw fail(cx, r, "VariableTypeConflict", `variable \`${name}\` changes between a relationship and a list of relationships`);
    }
  }
  checkProperties(cx, scope, r, use);
  if (name !== null && existing === undefined) {
    scope.set(name, r.varLength === null ? { kind: "rel", type: REL } : { kind: "relList", type: listOf(REL) });
    clauseVars.add(name);
  }
}
