import { runtimeTypeError } from "../errors.js";
import type { SetOp } from "../plan/logical-plan.js";
import { NodeRef, RelRef, typeName } from "../values/value.js";
import type { PropertyValue, Value } from "../values/value.js";
import type { ExecContext, Row } from "./context.js";
import { asEntity } from "./create-pattern.js";
import { deletedAccess, propertiesOf } from "./entity-access.js";
import { toPropertyValue } from "./property-values.js";

function setProp(ctx: ExecContext, e: NodeRef | RelRef, key: string, value: PropertyValue | undefined): void {
  if (e instanceof NodeRef) {
    if (!ctx.store.hasNode(e.id)) throw deletedAccess(`node ${e.id}`);
    ctx.store.setNodeProperty(e.id, key, value);
  } else {
    if (!ctx.store.hasRelationship(e.id)) throw deletedAccess(`relationship ${e.id}`);
    ctx.store.setRelProperty(e.id, key, value);
  }
}

function mapOf(ctx: ExecContext, v: Value): ReadonlyMap<string, Value> {
  if (v instanceof Map) return v;
  if (v instanceof NodeRef || v instanceof RelRef) return propertiesOf(ctx.store, v);
  throw runtimeTypeError("InvalidArgumentType", `SET expects a map, got ${typeName(v)}`);
}

function node(v: Value, what: string): NodeRef | null {
  if (v === null) return null;
  if (v instanceof NodeRef) return v;
  throw runtimeTypeError("InvalidArgumentType", `${what} expects a node, got ${typeName(v)}`);
}

/** Applies SET / REMOVE items to one row, in order; null targets are ignored (OPTIONAL MATCH misses). */
export function applySetOps(ops: readonly SetOp[], row: Row, ctx: ExecContext): void {
  const store = ctx.store;
  for (const op of ops) {
    switch (op.kind) {
      case "SetProperty": {
        const target = asEntity(op.target(row, ctx), "SET");
        const value = toPropertyValue(op.value(row, ctx));
        if (target !== null) setProp(ctx, target, op.key, value);
        break;
      }
      case "SetAll": {
        const target = asEntity(op.target(row, ctx), "SET");
        const raw = op.value(row, ctx);
        if (target === null) break;
        const next = raw === null ? new Map<string, Value>() : new Map(mapOf(ctx, raw));
        if (!op.merge) {
          for (const key of [...propertiesOf(store, target).keys()]) if (!next.has(key)) setProp(ctx, target, key, undefined);
        }
        for (const [k, v] of next) setProp(ctx, target, k, toPropertyValue(v));
        break;
      }
      case "SetLabels": {
        const target = node(op.target(row, ctx), "SET");
        if (target !== null) for (const l of op.labels) store.addLabel(target.id, l);
        break;
      }
      case "RemoveProperty": {
        const target = asEntity(op.target(row, ctx), "REMOVE");
        if (target !== null) setProp(ctx, target, op.key, undefined);
        break;
      }
      case "RemoveLabels": {
        const target = node(op.target(row, ctx), "REMOVE");
        if (target !== null) for (const l of op.labels) store.removeLabel(target.id, l);
        break;
      }
    }
  }
}
