import { ANY, BOOL, FLOAT, INT, MAP, NODE, STRING, join, listOf } from "./static-type.js";
import type { StaticType } from "./static-type.js";

const FIXED: Record<string, StaticType> = {
  count: INT,
  avg: ANY,
  stdev: FLOAT,
  stdevp: FLOAT,
  percentilecont: FLOAT,
  tostring: STRING,
  tointeger: INT,
  tofloat: FLOAT,
  toboolean: BOOL,
  size: INT,
  length: INT,
  id: INT,
  labels: listOf(STRING),
  keys: listOf(STRING),
  type: STRING,
  nodes: listOf(NODE),
  relationships: listOf({ t: "rel" }),
  startnode: NODE,
  endnode: NODE,
  range: listOf(INT),
  ceil: FLOAT,
  floor: FLOAT,
  round: FLOAT,
  sqrt: FLOAT,
  sign: INT,
  rand: FLOAT,
  split: listOf(STRING),
  substring: STRING,
  replace: STRING,
  toupper: STRING,
  tolower: STRING,
  trim: STRING,
  ltrim: STRING,
  rtrim: STRING,
  left: STRING,
  right: STRING,
  properties: MAP,
};

/** Result types of functions, used to find type errors at compile time. */
export function functionResultType(name: string, args: readonly StaticType[]): StaticType {
  const fixed = FIXED[name];
  if (fixed !== undefined) return fixed;
  const a = args[0] ?? ANY;
  switch (name) {
    case "collect":
      return listOf(a);
    case "min":
    case "max":
    case "abs":
      return a;
    case "head":
    case "last":
      return a.t === "list" ? a.elem : ANY;
    case "tail":
      return a.t === "list" ? a : ANY;
    case "coalesce":
      return args.reduce((x, y) => join(x, y), { t: "null" } as StaticType);
    default:
      return ANY;
  }
}
