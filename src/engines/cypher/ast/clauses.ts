import type { Expr, PropertyExpr } from "./expressions.js";
import type { PatternPart } from "./patterns.js";
import type { Query } from "./query.js";
import type { Span } from "./span.js";

export type Clause =
  | MatchClause
  | UnwindClause
  | WithClause
  | ReturnClause
  | CreateClause
  | MergeClause
  | SetClause
  | RemoveClause
  | DeleteClause
  | CallSubqueryClause
  | CreateIndexClause
  | DropIndexClause;

export interface MatchClause {
  readonly kind: "Match";
  readonly span: Span;
  readonly optional: boolean;
  readonly patterns: readonly PatternPart[];
  readonly where: Expr | null;
}

export interface UnwindClause {
  readonly kind: "Unwind";
  readonly span: Span;
  readonly expr: Expr;
  readonly variable: string;
}

export interface ProjectionItem {
  readonly expr: Expr;
  readonly alias: string | null;
  /** The expression's source text: the column name when there is no alias. */
  readonly text: string;
  readonly span: Span;
}

export interface OrderItem {
  readonly expr: Expr;
  readonly descending: boolean;
}

export interface Projection {
  readonly distinct: boolean;
  readonly star: boolean;
  readonly items: readonly ProjectionItem[];
  readonly orderBy: readonly OrderItem[];
  readonly skip: Expr | null;
  readonly limit: Expr | null;
}

export interface WithClause extends Projection {
  readonly kind: "With";
  readonly span: Span;
  readonly where: Expr | null;
}

export interface ReturnClause extends Projection {
  readonly kind: "Return";
  readonly span: Span;
}

export interface CreateClause {
  readonly kind: "Create";
  readonly span: Span;
  readonly patterns: readonly PatternPart[];
}

export type SetItem =
  | { readonly kind: "SetProperty"; readonly span: Span; readonly target: PropertyExpr; readonly value: Expr }
  | { readonly kind: "SetAllProperties"; readonly span: Span; readonly variable: string; readonly value: Expr; readonly merge: boolean }
  | { readonly kind: "SetLabels"; readonly span: Span; readonly variable: string; readonly labels: readonly string[] };

export interface MergeClause {
  readonly kind: "Merge";
  readonly span: Span;
  readonly pattern: PatternPart;
  readonly onCreate: readonly SetItem[];
  readonly onMatch: readonly SetItem[];
}

export interface SetClause {
  readonly kind: "Set";
  readonly span: Span;
  readonly items: readonly SetItem[];
}

export type RemoveItem =
  | { readonly kind: "RemoveProperty"; readonly span: Span; readonly target: PropertyExpr }
  | { readonly kind: "RemoveLabels"; readonly span: Span; readonly variable: string; readonly labels: readonly string[] };

export interface RemoveClause {
  readonly kind: "Remove";
  readonly span: Span;
  readonly items: readonly RemoveItem[];
}

export interface DeleteClause {
  readonly kind: "Delete";
  readonly span: Span;
  readonly detach: boolean;
  readonly exprs: readonly Expr[];
}

/** `CALL { ... }`; variables are imported by a leading `WITH` inside the body. */
export interface CallSubqueryClause {
  readonly kind: "CallSubquery";
  readonly span: Span;
  readonly body: Query;
}

export interface CreateIndexClause {
  readonly kind: "CreateIndex";
  readonly span: Span;
  readonly entity: "node" | "relationship";
  readonly token: string;
  readonly properties: readonly string[];
}

export interface DropIndexClause {
  readonly kind: "DropIndex";
  readonly span: Span;
  readonly entity: "node" | "relationship";
  readonly token: string;
  readonly properties: readonly string[];
}
