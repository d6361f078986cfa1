import type { Value } from "../values/value.js";
import type { PatternPart } from "./patterns.js";
import type { Span } from "./span.js";

export type Expr =
  | LiteralExpr
  | ParameterExpr
  | VariableExpr
  | ListExpr
  | MapExpr
  | PropertyExpr
  | IndexExpr
  | SliceExpr
  | UnaryExpr
  | BinaryExpr
  | ComparisonExpr
  | IsNullExpr
  | HasLabelsExpr
  | FunctionCallExpr
  | CaseExpr
  | ListComprehensionExpr
  | QuantifierExpr
  | ReduceExpr
  | PatternComprehensionExpr
  | PatternPredicateExpr
  | MapProjectionExpr
  | ShortestPathExpr;

export interface LiteralExpr {
  readonly kind: "Literal";
  readonly span: Span;
  readonly value: Value;
}

export interface ParameterExpr {
  readonly kind: "Parameter";
  readonly span: Span;
  readonly name: string;
}

export interface VariableExpr {
  readonly kind: "Variable";
  readonly span: Span;
  readonly name: string;
}

export interface ListExpr {
  readonly kind: "List";
  readonly span: Span;
  readonly items: readonly Expr[];
}

export interface MapExpr {
  readonly kind: "Map";
  readonly span: Span;
  readonly entries: readonly (readonly [string, Expr])[];
}

export interface PropertyExpr {
  readonly kind: "Property";
  readonly span: Span;
  readonly object: Expr;
  readonly key: string;
}

export interface IndexExpr {
  readonly kind: "Index";
  readonly span: Span;
  readonly object: Expr;
  readonly index: Expr;
}

export interface SliceExpr {
  readonly kind: "Slice";
  readonly span: Span;
  readonly object: Expr;
  readonly from: Expr | null;
  readonly to: Expr | null;
}

export type UnaryOp = "not" | "-" | "+";

export interface UnaryExpr {
  readonly kind: "Unary";
  readonly span: Span;
  readonly op: UnaryOp;
  readonly operand: Expr;
}

export type BinaryOp = "or" | "xor" | "and" | "+" | "-" | "*" | "/" | "%" | "^" | "=~" | "starts with" | "ends with" | "contains" | "in";

export interface BinaryExpr {
  readonly kind: "Binary";
  readonly span: Span;
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

export type ComparisonOp = "=" | "<>" | "<" | ">" | "<=" | ">=";

/** `a < b <= c` is a chain meaning `a < b AND b <= c` with `b` evaluated once. */
export interface ComparisonExpr {
  readonly kind: "Comparison";
  readonly span: Span;
  readonly ops: readonly ComparisonOp[];
  readonly operands: readonly Expr[];
}

export interface IsNullExpr {
  readonly kind: "IsNull";
  readonly span: Span;
  readonly operand: Expr;
  readonly negated: boolean;
}

export interface HasLabelsExpr {
  readonly kind: "HasLabels";
  readonly span: Span;
  readonly operand: Expr;
  readonly labels: readonly string[];
}

export interface FunctionCallExpr {
  readonly kind: "FunctionCall";
  readonly span: Span;
  /** Lower-cased, namespaces joined with dots. */
  readonly name: string;
  readonly distinct: boolean;
  readonly args: readonly Expr[];
  /** `count(*)`. */
  readonly star: boolean;
}

export interface CaseExpr {
  readonly kind: "Case";
  readonly span: Span;
  readonly subject: Expr | null;
  readonly whens: readonly (readonly [Expr, Expr])[];
  readonly otherwise: Expr | null;
}

export interface ListComprehensionExpr {
  readonly kind: "ListComprehension";
  readonly span: Span;
  readonly variable: string;
  readonly list: Expr;
  readonly where: Expr | null;
  readonly projection: Expr | null;
}

export type Quantifier = "all" | "any" | "none" | "single";

export interface QuantifierExpr {
  readonly kind: "Quantifier";
  readonly span: Span;
  readonly quantifier: Quantifier;
  readonly variable: string;
  readonly list: Expr;
  readonly where: Expr | null;
}

export interface ReduceExpr {
  readonly kind: "Reduce";
  readonly span: Span;
  readonly accumulator: string;
  readonly init: Expr;
  readonly variable: string;
  readonly list: Expr;
  readonly body: Expr;
}

export interface PatternComprehensionExpr {
  readonly kind: "PatternComprehension";
  readonly span: Span;
  readonly pattern: PatternPart;
  readonly where: Expr | null;
  readonly projection: Expr;
}

/** A bare relationship pattern used as a boolean (`WHERE (a)-->(b)`): true when it has a match. */
export interface PatternPredicateExpr {
  readonly kind: "PatternPredicate";
  readonly span: Span;
  readonly pattern: PatternPart;
}

export type MapProjectionItem =
  | { readonly kind: "PropertySelector"; readonly key: string }
  | { readonly kind: "AllProperties" }
  | { readonly kind: "VariableSelector"; readonly name: string }
  | { readonly kind: "LiteralEntry"; readonly key: string; readonly value: Expr };

export interface MapProjectionExpr {
  readonly kind: "MapProjection";
  readonly span: Span;
  readonly variable: string;
  readonly items: readonly MapProjectionItem[];
}

export interface ShortestPathExpr {
  readonly kind: "ShortestPath";
  readonly span: Span;
  readonly all: boolean;
  readonly pattern: PatternPart;
}
