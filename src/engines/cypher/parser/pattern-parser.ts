import type { Expr } from "../ast/expressions.js";
import type { Direction, NodePattern, PatternPart, RelationshipPattern, VarLength } from "../ast/patterns.js";
import { ExpressionParser } from "./expression-parser.js";

/** Graph patterns: `p = (a:L {k: v})-[r:T*1..2]->(b)`, and `shortestPath(...)` parts in MATCH (rejected later). */
export abstract class PatternParser extends ExpressionParser {
  protected parsePatternPart(allowPathVariable: boolean): PatternPart {
    const start = this.peek().start;
    let pathVariable: string | null = null;
    if (allowPathVariable && this.isName() && this.isPunct("=", 1)) {
      pathVariable = this.expectName();
      this.next();
    }
    for (const [word, kind] of [
      ["SHORTESTPATH", "shortest"],
      ["ALLSHORTESTPATHS", "all"],
    ] as const) {
      if (this.isKeyword(word) && this.isPunct("(", 1)) {
        this.next();
        this.next();
        const inner = this.parsePatternChain(start, null);
        this.expectPunct(")");
        return { ...inner, span: this.span(start), pathVariable, shortest: kind };
      }
    }
    return this.parsePatternChain(start, pathVariable);
  }

  private parsePatternChain(start: number, pathVariable: string | null): PatternPart {
    if (this.isPunct("(") && this.isPunct("(", 1)) {
      // A parenthesised pattern `((a)-->(b))`.
      this.next();
      const inner = this.nested(() => this.parsePatternChain(this.peek().start, null));
      this.expectPunct(")");
      return { ...inner, span: this.span(start), pathVariable };
    }
    const nodes: NodePattern[] = [this.parseNodePattern()];
    const rels: RelationshipPattern[] = [];
    while (this.atRelationshipStart()) {
      rels.push(this.parseRelationshipPattern());
      nodes.push(this.parseNodePattern());
    }
    return { kind: "PatternPart", span: this.span(start), pathVariable, nodes, rels, shortest: null };
  }

  protected atRelationshipStart(): boolean {
    if (this.isPunct("<") && this.isPunct("-", 1)) return true;
    return this.isPunct("-") && (this.isPunct("[", 1) || this.isPunct("-", 1) || this.isPunct(">", 1));
  }

  protected tryRelationshipPattern(): PatternPart | null {
    const save = this.pos;
    try {
      this.parseNodePattern();
      if (!this.atRelationshipStart()) {
        this.pos = save;
        return null;
      }
      this.pos = save;
      return this.parsePatternPart(false);
    } catch {
      // Not a pattern here: the caller parses the same tokens as something else.
      this.pos = save;
      return null;
    }
  }

  protected parseNodePattern(): NodePattern {
    const start = this.peek().start;
    this.expectPunct("(");
    let variable: string | null = null;
    if (this.isName()) variable = this.expectName();
    const labels: string[] = [];
    while (this.acceptPunct(":")) labels.push(this.expectName("a label"));
    const properties = this.parsePatternProperties();
    this.expectPunct(")");
    return { kind: "NodePattern", span: this.span(start), variable, labels, properties };
  }

  private parsePatternProperties(): Expr | null {
    if (this.isPunct("{")) return this.parseMapLiteral();
    const t = this.peek();
    if (t.type === "param") {
      this.next();
      return { kind: "Parameter", span: { start: t.start, end: t.end }, name: t.text };
    }
    return null;
  }

  private parseRelationshipPattern(): RelationshipPattern {
    const start = this.peek().start;
    const leftArrow = this.acceptPunct("<");
    this.expectPunct("-");
    let variable: string | null = null;
    const types: string[] = [];
    let properties: Expr | null = null;
    let varLength: VarLength | null = null;
    if (this.acceptPunct("[")) {
      if (this.isName()) variable = this.expectName();
      if (this.acceptPunct(":")) {
        types.push(this.expectName("a relationship type"));
        while (this.acceptPunct("|")) {
          this.acceptPunct(":");
          types.push(this.expectName("a relationship type"));
        }
      }
      if (this.acceptPunct("*")) varLength = this.parseVarLength();
      else if (this.peek().type === "int" || this.isPunct("..")) {
        throw this.unexpected("a variable length needs '*' before its bounds", "InvalidRelationshipPattern");
      }
      if (this.isPunct("-")) throw this.unexpected("relationship length bounds cannot be negative", "InvalidRelationshipPattern");
      properties = this.parsePatternProperties();
      this.expectPunct("]");
    }
    this.expectPunct("-");
    const rightArrow = this.acceptPunct(">");
    // `<-->` is accepted by Cypher and, like `--`, means either direction.
    const direction: Direction = leftArrow && !rightArrow ? "in" : rightArrow && !leftArrow ? "out" : "both";
    return { kind: "RelationshipPattern", span: this.span(start), variable, types, direction, properties, varLength };
  }

  private parseVarLength(): VarLength {
    const readInt = (): number | null => {
      const t = this.peek();
      if (t.type !== "int") return null;
      this.next();
      return Number(t.text);
    };
    const min = readInt();
    if (this.acceptPunct("..")) return { min, max: readInt() };
    return { min, max: min };
  }
}
