import { CypherError, runtimeTypeError } from "../errors.js";
import type { GraphStore } from "../store/graph-store.js";
import { NodeRef, RelRef, typeName } from "../values/value.js";
import type { PropertyValue, Value } from "../values/value.js";

export function deletedAccess(what: string): CypherError {
  return new CypherError("EntityNotFound", "runtime", "DeletedEntityAccess", `${what} has been deleted in this query`);
}

/** `x.key` for nodes, relationships and maps; null propagates; anything else is a type error. */
export function propertyOf(store: GraphStore, v: Value, key: string): Value {
  if (v === null) return null;
  if (v instanceof NodeRef) {
    if (!store.hasNode(v.id)) throw deletedAccess(`node ${v.id}`);
    return store.nodeProperty(v.id, key) ?? null;
  }
  if (v instanceof RelRef) {
    if (!store.hasRelationship(v.id)) throw deletedAccess(`relationship ${v.id}`);
    return store.relProperty(v.id, key) ?? null;
  }
  if (v instanceof Map) return v.get(key) ?? null;
  throw runtimeTypeError("InvalidArgumentType", `cannot read property '${key}' of ${typeName(v)}`);
}

export function propertiesOf(store: GraphStore, v: NodeRef | RelRef): ReadonlyMap<string, PropertyValue> {
  if (v instanceof NodeRef) {
    if (!store.hasNode(v.id)) throw deletedAccess(`node ${v.id}`);
    return store.nodeProperties(v.id);
  }
  if (!store.hasRelationship(v.id)) throw deletedAccess(`relationship ${v.id}`);
  return store.relProperties(v.id);
}
