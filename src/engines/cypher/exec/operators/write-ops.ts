import { CypherError } from "../../errors.js";
import type { CreatePattern, SetOp } from "../../plan/logical-plan.js";
import { NodeRef, PathValue, RelRef, typeName } from "../../values/value.js";
import type { Value } from "../../values/value.js";
import { applySetOps } from "../apply-set-ops.js";
import type { Evaluator, ExecContext, Row } from "../context.js";
import { createPattern } from "../create-pattern.js";
import { runMatch } from "../match-executor.js";
import type { MatchProgram } from "../match-program.js";

/*
 * Write operators take a fully materialised input: every read that feeds a write finishes before
 * the first write, so a clause never observes its own effects (MATCH ... CREATE cannot loop).
 */

export function createOp(input: readonly Row[], patterns: readonly CreatePattern[], ctx: ExecContext): Row[] {
  return input.map((r) => {
    ctx.tick();
    const row = { ...r };
    for (const p of patterns) createPattern(p, row, ctx);
    return row;
  });
}

export function mergeOp(
  input: readonly Row[],
  pattern: CreatePattern,
  program: MatchProgram,
  onCreate: readonly SetOp[],
  onMatch: readonly SetOp[],
  ctx: ExecContext,
): Row[] {
  const out: Row[] = [];
  for (const row of input) {
    ctx.tick();
    rejectNullProperties(pattern, row, ctx);
    const matches = ctx.drain(runMatch(program, row, ctx));
    if (matches.length > 0) {
      for (const m of matches) applySetOps(onMatch, m, ctx);
      ctx.checkLength(out.length + matches.length, "rows");
      out.push(...matches);
      continue;
    }
    const created = { ...row };
    createPattern(pattern, created, ctx);
    applySetOps(onCreate, created, ctx);
    out.push(created);
  }
  return out;
}

/** MERGE cannot match on a null property (it could never find what it creates). */
function rejectNullProperties(pattern: CreatePattern, row: Row, ctx: ExecContext): void {
  for (const el of [...pattern.nodes, ...pattern.rels]) {
    const props = el.props?.(row, ctx) ?? null;
    if (!(props instanceof Map)) continue;
    for (const [k, v] of props) {
      if (v === null) throw new CypherError("SemanticError", "runtime", "MergeReadOwnWrites", `cannot MERGE with a null value for property ${k}`);
    }
  }
}

export function updateOp(input: readonly Row[], ops: readonly SetOp[], ctx: ExecContext): Row[] {
  for (const row of input) {
    ctx.tick();
    applySetOps(ops, row, ctx);
  }
  return [...input];
}

/**
 * DELETE for all rows at once: relationships first, then nodes, so `DELETE n, r` in any order works;
 * a node that still has relationships afterwards (without DETACH) is an error.
 */
export function deleteOp(input: readonly Row[], targets: readonly Evaluator[], detach: boolean, ctx: ExecContext): Row[] {
  const store = ctx.store;
  const nodes = new Set<number>();
  const rels = new Set<number>();
  const collect = (v: Value): void => {
    if (v === null) return;
    if (v instanceof NodeRef) nodes.add(v.id);
    else if (v instanceof RelRef) rels.add(v.id);
    else if (v instanceof PathValue) {
      v.nodes.forEach((n) => nodes.add(n.id));
      v.rels.forEach((r) => rels.add(r.id));
    } else throw new CypherError("TypeError", "runtime", "InvalidArgumentType", `cannot delete ${typeName(v)}`);
  };
  for (const row of input) for (const t of targets) collect(t(row, ctx));
  const deleteRel = (id: number): void => {
    if (!store.hasRelationship(id)) return;
    ctx.deletedRelationships.set(id, store.relationship(id));
    store.deleteRelationship(id);
  };
  for (const id of rels) deleteRel(id);
  for (const id of nodes) {
    if (!store.hasNode(id)) continue;
    if (detach) {
      for (const r of [...store.outgoing(id), ...store.incoming(id)]) deleteRel(r);
    } else if (store.outgoing(id).length > 0 || store.incoming(id).length > 0) {
      throw new CypherError(
        "ConstraintVerificationFailed",
        "runtime",
        "DeleteConnectedNode",
        `cannot delete node ${id} because it still has relationships; use DETACH DELETE`,
      );
    }
    store.deleteNode(id);
  }
  return [...input];
}
