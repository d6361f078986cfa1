import type { BinaryOp, ComparisonOp, Expr, MapProjectionItem, Quantifier } from "../ast/expressions.js";
import type { PatternPart } from "../ast/patterns.js";
import { parseNumberLiteral } from "./number-literal.js";
import { TokenCursor } from "./token-cursor.js";

/** Binding powers for the Pratt loop, loosest first. */
const BP = { or: 1, xor: 2, and: 3, not: 4, comparison: 5, predicate: 6, additive: 7, multiplicative: 8, power: 9, unary: 10 } as const;

const COMPARISON_OPS = new Set<string>(["=", "<>", "!=", "<", ">", "<=", ">="]);
const QUANTIFIERS = new Set<string>(["ALL", "ANY", "NONE", "SINGLE"]);

/**
 * Expressions, Pratt style. Patterns inside expressions (pattern predicates and comprehensions)
 * are delegated to the subclass through the abstract pattern hooks, which keeps files acyclic.
 */
export abstract class ExpressionParser extends TokenCursor {
  protected abstract parsePatternPart(allowPathVariable: boolean): PatternPart;
  /** Tries a relationship pattern at the cursor; restores the cursor and returns null when it is not one. */
  protected abstract tryRelationshipPattern(): PatternPart | null;

  parseExpression(minBp = 0): Expr {
    return this.nested(() => this.parseExpressionAt(minBp));
  }

  private parseExpressionAt(minBp: number): Expr {
    const start = this.peek().start;
    let left = this.parsePrefix();
    for (;;) {
      const t = this.peek();
      const word = t.type === "ident" ? t.text.toUpperCase() : null;
      if (word === "OR" && BP.or > minBp) left = this.binary(start, "or", left, BP.or);
      else if (word === "XOR" && BP.xor > minBp) left = this.binary(start, "xor", left, BP.xor);
      else if (word === "AND" && BP.and > minBp) left = this.binary(start, "and", left, BP.and);
      else if (t.type === "punct" && COMPARISON_OPS.has(t.text) && BP.comparison > minBp) left = this.comparisonChain(start, left);
      else if (BP.predicate > minBp && (word !== null || this.isPunct("=~"))) {
        const next = this.parsePredicateSuffix(start, left);
        if (next === null) break;
        left = next;
      } else if (t.type === "punct" && (t.text === "+" || t.text === "-") && BP.additive > minBp) {
        left = this.binary(start, t.text, left, BP.additive);
      } else if (t.type === "punct" && (t.text === "*" || t.text === "/" || t.text === "%") && BP.multiplicative > minBp) {
        left = this.binary(start, t.text, left, BP.multiplicative);
      } else if (t.type === "punct" && t.text === "^" && BP.power > minBp) {
        left = this.binary(start, "^", left, BP.power);
      } else break;
    }
    return left;
  }

  private binary(start: number, op: BinaryOp, left: Expr, bp: number): Expr {
    this.next();
    const right = this.parseExpression(bp);
    return { kind: "Binary", span: this.span(start), op, left, right };
  }

  private comparisonChain(start: number, first: Expr): Expr {
    const ops: ComparisonOp[] = [];
    const operands: Expr[] = [first];
    while (this.peek().type === "punct" && COMPARISON_OPS.has(this.peek().text)) {
      const text = this.next().text;
      ops.push(text === "!=" ? "<>" : (text as ComparisonOp));
      operands.push(this.parseExpression(BP.comparison));
    }
    return { kind: "Comparison", span: this.span(start), ops, operands };
  }

  /** STARTS WITH / ENDS WITH / CONTAINS / IN / =~ / IS [NOT] NULL, or null when none applies. */
  private parsePredicateSuffix(start: number, left: Expr): Expr | null {
    if (this.acceptPunct("=~")) {
      const right = this.parseExpression(BP.predicate);
      return { kind: "Binary", span: this.span(start), op: "=~", left, right };
    }
    if (this.isKeyword("STARTS") && this.isKeyword("WITH", 1)) return this.keywordBinary(start, "starts with", left, 2);
    if (this.isKeyword("ENDS") && this.isKeyword("WITH", 1)) return this.keywordBinary(start, "ends with", left, 2);
    if (this.isKeyword("CONTAINS")) return this.keywordBinary(start, "contains", left, 1);
    if (this.isKeyword("IN")) return this.keywordBinary(start, "in", left, 1);
    if (this.isKeyword("IS")) {
      this.next();
      const negated = this.acceptKeyword("NOT");
      this.expectKeyword("NULL");
      return { kind: "IsNull", span: this.span(start), operand: left, negated };
    }
    return null;
  }

  private keywordBinary(start: number, op: BinaryOp, left: Expr, words: number): Expr {
    for (let i = 0; i < words; i++) this.next();
    const right = this.parseExpression(BP.predicate);
    return { kind: "Binary", span: this.span(start), op, left, right };
  }

  private parsePrefix(): Expr {
    const start = this.peek().start;
    if (this.acceptKeyword("NOT")) {
      const operand = this.parseExpression(BP.and);
      return { kind: "Unary", span: this.span(start), op: "not", operand };
    }
    if (this.isPunct("-") || this.isPunct("+")) {
      const op = this.next().text as "-" | "+";
      const t = this.peek();
      if (op === "-" && (t.type === "int" || t.type === "float") && t.start === this.lastEnd) {
        // Negative literals are folded so that -9223372036854775808 is representable.
        this.next();
        const value = parseNumberLiteral(t, true, (d, r) => this.errorAt(start, d, r));
        return this.parsePostfix(start, { kind: "Literal", span: this.span(start), value });
      }
      const operand = this.parseExpression(BP.unary);
      return { kind: "Unary", span: this.span(start), op, operand };
    }
    return this.parsePostfix(start, this.parseAtom());
  }

  private parsePostfix(start: number, atom: Expr): Expr {
    let expr = atom;
    for (;;) {
      if (this.isPunct(".") && this.isName(1)) {
        this.next();
        const key = this.expectName("a property key");
        expr = { kind: "Property", span: this.span(start), object: expr, key };
      } else if (this.isPunct("[")) {
        this.next();
        let from: Expr | null = null;
        if (!this.isPunct("..")) from = this.parseExpression();
        if (this.acceptPunct("..")) {
          const to = this.isPunct("]") ? null : this.parseExpression();
          this.expectPunct("]");
          expr = { kind: "Slice", span: this.span(start), object: expr, from, to };
        } else {
          this.expectPunct("]");
          if (from === null) throw this.unexpected("expected an index");
          expr = { kind: "Index", span: this.span(start), object: expr, index: from };
        }
      } else if (this.isPunct(":") && this.isName(1)) {
        const labels: string[] = [];
        while (this.acceptPunct(":")) labels.push(this.expectName("a label"));
        expr = { kind: "HasLabels", span: this.span(start), operand: expr, labels };
      } else return expr;
    }
  }

  private parseAtom(): Expr {
    const t = this.peek();
    const start = t.start;
    switch (t.type) {
      case "int":
      case "float": {
        this.next();
        const value = parseNumberLiteral(t, false, (d, r) => this.errorAt(start, d, r));
        return { kind: "Literal", span: this.span(start), value };
      }
      case "string":
        this.next();
        return { kind: "Literal", span: this.span(start), value: t.text };
      case "param":
        this.next();
        return { kind: "Parameter", span: this.span(start), name: t.text };
      case "quoted":
        this.next();
        return this.afterName(start, t.text);
      case "ident":
        return this.parseIdentAtom();
      case "punct":
        return this.parsePunctAtom();
      case "badNumber":
        throw this.errorAt(start, "InvalidNumberLiteral", `invalid number literal ${t.text}`);
      case "eof":
        throw this.unexpected("expected an expression");
    }
  }

  private parsePunctAtom(): Expr {
    const start = this.peek().start;
    if (this.isPunct("(")) {
      const pattern = this.tryRelationshipPattern();
      if (pattern !== null) return { kind: "PatternPredicate", span: this.span(start), pattern };
      this.next();
      const inner = this.parseExpression();
      this.expectPunct(")");
      return inner;
    }
    if (this.isPunct("[")) return this.parseBracketAtom();
    if (this.isPunct("{")) return this.parseMapLiteral();
    throw this.unexpected("expected an expression");
  }

  protected parseMapLiteral(): Expr {
    const start = this.peek().start;
    this.expectPunct("{");
    const entries: [string, Expr][] = [];
    if (!this.isPunct("}")) {
      do {
        const key = this.expectName("a map key");
        this.expectPunct(":");
        entries.push([key, this.parseExpression()]);
      } while (this.acceptPunct(","));
    }
    this.expectPunct("}");
    return { kind: "Map", span: this.span(start), entries };
  }

  private parseBracketAtom(): Expr {
    const start = this.peek().start;
    if (this.isName(1) && this.isKeyword("IN", 2)) {
      this.next();
      const variable = this.expectName();
      this.expectKeyword("IN");
      const list = this.parseExpression();
      const where = this.acceptKeyword("WHERE") ? this.parseExpression() : null;
      const projection = this.acceptPunct("|") ? this.parseExpression() : null;
      this.expectPunct("]");
      return { kind: "ListComprehension", span: this.span(start), variable, list, where, projection };
    }
    const save = this.pos;
    this.next();
    if (this.isPunct("(") || (this.isName() && this.isPunct("=", 1))) {
      const pattern = this.tryPatternComprehensionPattern();
      if (pattern !== null) {
        const where = this.acceptKeyword("WHERE") ? this.parseExpression() : null;
        this.expectPunct("|");
        const projection = this.parseExpression();
        this.expectPunct("]");
        return { kind: "PatternComprehension", span: this.span(start), pattern, where, projection };
      }
      this.pos = save + 1;
    }
    const items: Expr[] = [];
    if (!this.isPunct("]")) {
      do items.push(this.parseExpression());
      while (this.acceptPunct(","));
    }
    this.expectPunct("]");
    return { kind: "List", span: this.span(start), items };
  }

  private tryPatternComprehensionPattern(): PatternPart | null {
    const save = this.pos;
    try {
      const pattern = this.parsePatternPart(true);
      if (pattern.rels.length > 0 && (this.isKeyword("WHERE") || this.isPunct("|"))) return pattern;
    } catch {
      // Not a pattern: fall back to a list literal.
    }
    this.pos = save;
    return null;
  }

  private parseIdentAtom(): Expr {
    const t = this.next();
    const start = t.start;
    const upper = t.text.toUpperCase();
    switch (upper) {
      case "TRUE":
        return { kind: "Literal", span: this.span(start), value: true };
      case "FALSE":
        return { kind: "Literal", span: this.span(start), value: false };
      case "NULL":
        return { kind: "Literal", span: this.span(start), value: null };
      case "CASE":
        return this.parseCase(start);
      default:
        break;
    }
    if (upper === "EXISTS" && this.isPunct("{")) {
      throw this.errorAt(start, "UnsupportedSubquery", "EXISTS { } subqueries are not supported; use a pattern predicate in WHERE");
    }
    if (upper === "COUNT" && this.isPunct("{")) {
      throw this.errorAt(start, "UnsupportedSubquery", "COUNT { } subqueries are not supported");
    }
    if (this.isPunct("(")) {
      if (QUANTIFIERS.has(upper) && this.isName(1) && this.isKeyword("IN", 2)) return this.parseQuantifier(start, upper.toLowerCase() as Quantifier);
      if (upper === "REDUCE" && this.isName(1) && this.isPunct("=", 2)) return this.parseReduce(start);
      if (upper === "SHORTESTPATH" || upper === "ALLSHORTESTPATHS") {
        this.next();
        const pattern = this.parsePatternPart(false);
        this.expectPunct(")");
        return { kind: "ShortestPath", span: this.span(start), all: upper === "ALLSHORTESTPATHS", pattern };
      }
      return this.parseFunctionCall(start, t.text);
    }
    if (this.isPunct(".")) {
      // A namespaced function call such as `duration.between(...)`: look for `(name .)* name (`.
      let k = 0;
      while (this.isPunct(".", k) && this.isName(k + 1)) k += 2;
      if (k > 0 && this.isPunct("(", k)) {
        let name = t.text;
        for (let i = 0; i < k; i += 2) {
          this.next();
          name += `.${this.next().text}`;
        }
        return this.parseFunctionCall(start, name);
      }
    }
    return this.afterName(start, t.text);
  }

  /** A variable, or a map projection `v {.a, b: expr, .*}`. */
  private afterName(start: number, name: string): Expr {
    if (this.isPunct("{")) return this.parseMapProjection(start, name);
    return { kind: "Variable", span: this.span(start), name };
  }

  private parseMapProjection(start: number, variable: string): Expr {
    this.expectPunct("{");
    const items: MapProjectionItem[] = [];
    if (!this.isPunct("}")) {
      do {
        if (this.acceptPunct(".")) {
          if (this.acceptPunct("*")) items.push({ kind: "AllProperties" });
          else items.push({ kind: "PropertySelector", key: this.expectName("a property key") });
        } else {
          const key = this.expectName("a map projection item");
          if (this.acceptPunct(":")) items.push({ kind: "LiteralEntry", key, value: this.parseExpression() });
          else items.push({ kind: "VariableSelector", name: key });
        }
      } while (this.acceptPunct(","));
    }
    this.expectPunct("}");
    return { kind: "MapProjection", span: this.span(start), variable, items };
  }

  private parseFunctionCall(start: number, name: string): Expr {
    this.expectPunct("(");
    if (this.acceptPunct("*")) {
      this.expectPunct(")");
      return { kind: "FunctionCall", span: this.span(start), name: name.toLowerCase(), distinct: false, args: [], star: true };
    }
    const distinct = this.acceptKeyword("DISTINCT");
    const args: Expr[] = [];
    if (!this.isPunct(")")) {
      do args.push(this.parseExpression());
      while (this.acceptPunct(","));
    }
    this.expectPunct(")");
    return { kind: "FunctionCall", span: this.span(start), name: name.toLowerCase(), distinct, args, star: false };
  }

  private parseQuantifier(start: number, quantifier: Quantifier): Expr {
    this.expectPunct("(");
    const variable = this.expectName();
    this.expectKeyword("IN");
    const list = this.parseExpression();
    const where = this.acceptKeyword("WHERE") ? this.parseExpression() : null;
    this.expectPunct(")");
    return { kind: "Quantifier", span: this.span(start), quantifier, variable, list, where };
  }

  private parseReduce(start: number): Expr {
    this.expectPunct("(");
    const accumulator = this.expectName();
    this.expectPunct("=");
    const init = this.parseExpression();
    this.expectPunct(",");
    const variable = this.expectName();
    this.expectKeyword("IN");
    const list = this.parseExpression();
    this.expectPunct("|");
    const body = this.parseExpression();
    this.expectPunct(")");
    return { kind: "Reduce", span: this.span(start), accumulator, init, variable, list, body };
  }

  private parseCase(start: number): Expr {
    const subject = this.isKeyword("WHEN") ? null : this.parseExpression();
    const whens: [Expr, Expr][] = [];
    while (this.acceptKeyword("WHEN")) {
      const cond = this.parseExpression();
      this.expectKeyword("THEN");
      whens.push([cond, this.parseExpression()]);
    }
    if (whens.length === 0) throw this.unexpected("expected WHEN");
    const otherwise = this.acceptKeyword("ELSE") ? this.parseExpression() : null;
    this.expectKeyword("END");
    return { kind: "Case", span: this.span(start), subject, whens, otherwise };
  }
}
