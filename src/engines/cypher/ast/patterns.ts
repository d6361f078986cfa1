import type { Expr } from "./expressions.js";
import type { Span } from "./span.js";

export interface NodePattern {
  readonly kind: "NodePattern";
  readonly span: Span;
  readonly variable: string | null;
  readonly labels: readonly string[];
  /** A map literal or a parameter. */
  readonly properties: Expr | null;
}

export type Direction = "out" | "in" | "both";

export interface VarLength {
  readonly min: number | null;
  readonly max: number | null;
}

export interface RelationshipPattern {
  readonly kind: "RelationshipPattern";
  readonly span: Span;
  readonly variable: string | null;
  readonly types: readonly string[];
  readonly direction: Direction;
  readonly properties: Expr | null;
  readonly varLength: VarLength | null;
}

/** A chain `(n0)-[r0]-(n1)-...`; `nodes.length === rels.length + 1`. */
export interface PatternPart {
  readonly kind: "PatternPart";
  readonly span: Span;
  readonly pathVariable: string | null;
  readonly nodes: readonly NodePattern[];
  readonly rels: readonly RelationshipPattern[];
  /** Set when the part was written as `shortestPath(...)` / `allShortestPaths(...)`. */
  readonly shortest: "shortest" | "all" | null;
}
