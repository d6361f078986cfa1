import { CypherError, runtimeTypeError } from "../errors.js";
import type { CreatePattern } from "../plan/logical-plan.js";
import { NodeRef, PathValue, RelRef, typeName } from "../values/value.js";
import type { PropertyValue, Value } from "../values/value.js";
import type { Evaluator, ExecContext, Row } from "./context.js";
import { toPropertyValue } from "./property-values.js";

function evaluateProps(props: Evaluator | null, row: Row, ctx: ExecContext): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  if (props === null) return out;
  const m = props(row, ctx);
  if (m === null) return out;
  if (!(m instanceof Map)) throw runtimeTypeError("InvalidArgumentType", `properties must be a map, got ${typeName(m)}`);
  for (const [k, v] of m) {
    const p = toPropertyValue(v);
    if (p !== undefined) out.set(k, p);
  }
  return out;
}

/** Creates the unbound parts of a pattern for one row and binds their variables in `row`. */
export function createPattern(pattern: CreatePattern, row: Row, ctx: ExecContext): void {
  const store = ctx.store;
  const ids: number[] = [];
  for (const n of pattern.nodes) {
    const bound = row[n.variable];
    if (bound !== undefined) {
      if (!(bound instanceof NodeRef)) {
        throw new CypherError("SemanticError", "runtime", "VariableTypeConflict", `cannot create a relationship to ${typeName(bound)} ${n.variable}`);
      }
      ids.push(bound.id);
      continue;
    }
    const id = store.createNode(n.labels, evaluateProps(n.props, row, ctx));
    row[n.variable] = new NodeRef(id);
    ids.push(id);
  }
  const rels: RelRef[] = [];
  pattern.rels.forEach((r, i) => {
    const a = ids[i] ?? -1;
    const b = ids[i + 1] ?? -1;
    const [start, end] = r.direction === "out" ? [a, b] : [b, a];
    const id = store.createRelationship(r.type, start, end, evaluateProps(r.props, row, ctx));
    const ref = new RelRef(id);
    row[r.variable] = ref;
    rels.push(ref);
  });
  if (pattern.pathVariable !== null) {
    row[pattern.pathVariable] = new PathValue(
      ids.map((id) => new NodeRef(id)),
      rels,
    );
  }
}

export function asEntity(v: Value, what: string): NodeRef | RelRef | null {
  if (v === null) return null;
  if (v instanceof NodeRef || v instanceof RelRef) return v;
  throw runtimeTypeError("InvalidArgumentType", `${what} expects a node or relationship, got ${typeName(v)}`);
}
