/**
 * Runtime values. Integers are `bigint` and floats are `number`, so the two never mix silently
 * (Cypher keeps INTEGER and FLOAT apart: `1 / 2` is 0, `1 / 2.0` is 0.5).
 * Maps are `Map` to keep insertion order and to be told apart from graph entities cheaply.
 */
export type Value = null | boolean | bigint | number | string | Value[] | CypherMap | NodeRef | RelRef | PathValue;

export type CypherMap = Map<string, Value>;

/** A node is referenced by id; its labels and properties are read from the store when needed. */
export class NodeRef {
  constructor(readonly id: number) {}
}

export class RelRef {
  constructor(readonly id: number) {}
}

/** A path alternates nodes and relationships: nodes.length === rels.length + 1. */
export class PathValue {
  constructor(
    readonly nodes: readonly NodeRef[],
    readonly rels: readonly RelRef[],
  ) {}
}

export type ValueTypeName = "NULL" | "BOOLEAN" | "INTEGER" | "FLOAT" | "STRING" | "LIST" | "MAP" | "NODE" | "RELATIONSHIP" | "PATH";

export function typeName(v: Value): ValueTypeName {
  if (v === null) return "NULL";
  switch (typeof v) {
    case "boolean":
      return "BOOLEAN";
    case "bigint":
      return "INTEGER";
    case "number":
      return "FLOAT";
    case "string":
      return "STRING";
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (Array.isArray(v)) return "LIST";
  if (v instanceof Map) return "MAP";
  if (v instanceof NodeRef) return "NODE";
  if (v instanceof RelRef) return "RELATIONSHIP";
  return "PATH";
}

/** Values that may be stored as properties: scalars and homogeneous lists of scalars. */
export type PropertyValue = boolean | bigint | number | string | PropertyValue[];
