import { deletedAccess, propertiesOf } from "../exec/entity-access.js";
import { NodeRef, PathValue, RelRef } from "../values/value.js";
import type { Value } from "../values/value.js";
import { arg, argType, argValue } from "./function-def.js";
import type { FunctionTable } from "./function-def.js";

export const graphFunctions: FunctionTable = {
  id: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (v instanceof NodeRef || v instanceof RelRef) return BigInt(v.id);
      throw argType("id", v, "a node or relationship");
    },
  },
  labels: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof NodeRef)) throw argValue("labels", v, "a node");
      if (!ctx.store.hasNode(v.id)) throw deletedAccess(`node ${v.id}`);
      return [...ctx.store.nodeLabels(v.id)];
    },
  },
  type: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof RelRef)) throw argValue("type", v, "a relationship");
      if (!ctx.store.hasRelationship(v.id)) {
        const deleted = ctx.deletedRelationships.get(v.id);
        if (deleted === undefined) throw deletedAccess(`relationship ${v.id}`);
        return deleted.type;
      }
      return ctx.store.relationship(v.id).type;
    },
  },
  startnode: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof RelRef)) throw argType("startNode", v, "a relationship");
      return new NodeRef(ctx.store.relationship(v.id).start);
    },
  },
  endnode: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof RelRef)) throw argType("endNode", v, "a relationship");
      return new NodeRef(ctx.store.relationship(v.id).end);
    },
  },
  properties: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (v instanceof Map) return new Map(v);
      if (v instanceof NodeRef || v instanceof RelRef) return new Map<string, Value>(propertiesOf(ctx.store, v));
      throw argType("properties", v, "a node, relationship or map");
    },
  },
  keys: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (v instanceof Map) return [...v.keys()];
      if (v instanceof NodeRef || v instanceof RelRef) return [...propertiesOf(ctx.store, v).keys()];
      throw argType("keys", v, "a node, relationship or map");
    },
  },
  nodes: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof PathValue)) throw argType("nodes", v, "a path");
      return [...v.nodes];
    },
  },
  relationships: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (!(v instanceof PathValue)) throw argType("relationships", v, "a path");
      return [...v.rels];
    },
  },
};
