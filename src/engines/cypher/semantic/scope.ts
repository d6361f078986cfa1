import type { StaticType } from "./static-type.js";

/** What a variable is bound to, as far as the compiler knows. */
export type VariableKind = "node" | "rel" | "relList" | "path" | "value";

export interface VariableInfo {
  readonly kind: VariableKind;
  readonly type: StaticType;
}

export type Scope = ReadonlyMap<string, VariableInfo>;
