import { runtimeTypeError } from "../errors.js";
import type { GraphStore } from "../store/graph-store.js";
import { NodeRef, typeName } from "../values/value.js";
import type { Value } from "../values/value.js";
import { deletedAccess } from "./entity-access.js";

/** `n:A:B` — true when the node has every label; null for null. */
export function hasLabels(store: GraphStore, v: Value, labels: readonly string[]): boolean | null {
  if (v === null) return null;
  if (!(v instanceof NodeRef)) throw runtimeTypeError("InvalidArgumentType", `label predicate on ${typeName(v)}`);
  if (!store.hasNode(v.id)) throw deletedAccess(`node ${v.id}`);
  return labels.every((l) => store.nodeHasLabel(v.id, l));
}
