import type { Clause, OrderItem, Projection, ProjectionItem, RemoveItem, SetItem } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import type { PatternPart } from "../ast/patterns.js";
import type { Query, SingleQuery } from "../ast/query.js";
import { PatternParser } from "./pattern-parser.js";

const CLAUSE_STARTS = [
  "MATCH",
  "OPTIONAL",
  "UNWIND",
  "WITH",
  "RETURN",
  "CREATE",
  "MERGE",
  "SET",
  "REMOVE",
  "DELETE",
  "DETACH",
  "CALL",
  "DROP",
  "LOAD",
  "FOREACH",
  "UNION",
];

/** Clauses and whole queries. The result is purely syntactic; the semantic pass checks scoping. */
export class ClauseParser extends PatternParser {
  parseQuery(): Query {
    const query = this.parseUnion();
    this.acceptPunct(";");
    if (this.peek().type !== "eof") throw this.unexpected("expected a clause");
    return query;
  }

  private parseUnion(): Query {
    const start = this.peek().start;
    const parts: SingleQuery[] = [this.parseSingleQuery()];
    const all: boolean[] = [];
    while (this.acceptKeyword("UNION")) {
      all.push(this.acceptKeyword("ALL"));
      parts.push(this.parseSingleQuery());
    }
    const first = parts[0];
    if (parts.length === 1 && first !== undefined) return first;
    return { kind: "Union", span: this.span(start), parts, all };
  }

  private parseSingleQuery(): SingleQuery {
    const start = this.peek().start;
    const clauses: Clause[] = [];
    while (this.peek().type !== "eof" && !this.isKeyword("UNION") && !this.isPunct("}") && !this.isPunct(";")) {
      clauses.push(this.parseClause());
    }
    if (clauses.length === 0) throw this.unexpected("expected a clause");
    return { kind: "SingleQuery", span: this.span(start), clauses };
  }

  private parseClause(): Clause {
    const start = this.peek().start;
    const word = this.peek().type === "ident" ? this.peek().text.toUpperCase() : "";
    switch (word) {
      case "OPTIONAL":
        this.next();
        this.expectKeyword("MATCH");
        return this.parseMatch(start, true);
      case "MATCH":
        this.next();
        return this.parseMatch(start, false);
      case "UNWIND": {
        this.next();
        const expr = this.parseExpression();
        this.expectKeyword("AS");
        const variable = this.expectName("a variable");
        return { kind: "Unwind", span: this.span(start), expr, variable };
      }
      case "WITH": {
        this.next();
        const projection = this.parseProjection();
        const where = this.acceptKeyword("WHERE") ? this.parseExpression() : null;
        return { kind: "With", span: this.span(start), ...projection, where };
      }
      case "RETURN": {
        this.next();
        return { kind: "Return", span: this.span(start), ...this.parseProjection() };
      }
      case "CREATE":
        this.next();
        if (this.isKeyword("INDEX")) return this.parseCreateIndex(start);
        return { kind: "Create", span: this.span(start), patterns: this.parsePatternList() };
      case "MERGE":
        this.next();
        return this.parseMerge(start);
      case "SET":
        this.next();
        return { kind: "Set", span: this.span(start), items: this.parseSetItems() };
      case "REMOVE":
        this.next();
        return { kind: "Remove", span: this.span(start), items: this.parseRemoveItems() };
      case "DETACH":
      case "DELETE": {
        const detach = this.acceptKeyword("DETACH");
        this.expectKeyword("DELETE");
        const exprs: Expr[] = [];
        do exprs.push(this.parseExpression());
        while (this.acceptPunct(","));
        return { kind: "Delete", span: this.span(start), detach, exprs };
      }
      case "CALL":
        return this.parseCall(start);
      case "DROP":
        this.next();
        return this.parseDropIndex(start);
      case "LOAD":
        throw this.errorAt(start, "UnsupportedClause", "LOAD CSV is not supported");
      case "FOREACH":
        throw this.errorAt(start, "UnsupportedClause", "FOREACH is not supported");
      default:
        throw this.unexpected(`expected one of ${CLAUSE_STARTS.join(", ")}`);
    }
  }

  private parseMatch(start: number, optional: boolean): Clause {
    const patterns = this.parsePatternList();
    const where = this.acceptKeyword("WHERE") ? this.parseExpression() : null;
    return { kind: "Match", span: this.span(start), optional, patterns, where };
  }

  private parsePatternList(): PatternPart[] {
    const parts: PatternPart[] = [];
    do parts.push(this.parsePatternPart(true));
    while (this.acceptPunct(","));
    return parts;
  }

  private parseProjection(): Projection {
    const distinct = this.acceptKeyword("DISTINCT");
    let star = false;
    const items: ProjectionItem[] = [];
    if (this.acceptPunct("*")) {
      star = true;
      if (this.acceptPunct(",")) this.parseProjectionItems(items);
    } else this.parseProjectionItems(items);
    const orderBy: OrderItem[] = [];
    if (this.isKeyword("ORDER")) {
      this.next();
      this.expectKeyword("BY");
      do {
        const expr = this.parseExpression();
        let descending = false;
        if (this.acceptKeyword("DESC") || this.acceptKeyword("DESCENDING")) descending = true;
        else if (!this.acceptKeyword("ASC")) this.acceptKeyword("ASCENDING");
        orderBy.push({ expr, descending });
      } while (this.acceptPunct(","));
    }
    const skip = this.acceptKeyword("SKIP") ? this.parseExpression() : null;
    const limit = this.acceptKeyword("LIMIT") ? this.parseExpression() : null;
    return { distinct, star, items, orderBy, skip, limit };
  }

  private parseProjectionItems(items: ProjectionItem[]): void {
    do {
      // The column name is the item's own text, parentheses included: `RETURN (n:Foo)` -> "(n:Foo)".
      const start = this.peek().start;
      const expr = this.parseExpression();
      const text = this.source.slice(start, this.lastEnd);
      const alias = this.acceptKeyword("AS") ? this.expectName("an alias") : null;
      items.push({ expr, alias, text, span: this.span(start) });
    } while (this.acceptPunct(","));
  }

  private parseMerge(start: number): Clause {
    const pattern = this.parsePatternPart(true);
    const onCreate: SetItem[] = [];
    const onMatch: SetItem[] = [];
    while (this.isKeyword("ON")) {
      this.next();
      if (this.acceptKeyword("CREATE")) {
        this.expectKeyword("SET");
        onCreate.push(...this.parseSetItems());
      } else {
        this.expectKeyword("MATCH");
        this.expectKeyword("SET");
        onMatch.push(...this.parseSetItems());
      }
    }
    return { kind: "Merge", span: this.span(start), pattern, onCreate, onMatch };
  }

  private parseSetItems(): SetItem[] {
    const items: SetItem[] = [];
    do {
      const start = this.peek().start;
      if (this.isName() && (this.isPunct("=", 1) || this.isPunct("+=", 1))) {
        const variable = this.expectName();
        const merge = this.next().text === "+=";
        items.push({ kind: "SetAllProperties", span: this.span(start), variable, value: this.parseExpression(), merge });
      } else if (this.isName() && this.isPunct(":", 1)) {
        const variable = this.expectName();
        const labels: string[] = [];
        while (this.acceptPunct(":")) labels.push(this.expectName("a label"));
        items.push({ kind: "SetLabels", span: this.span(start), variable, labels });
      } else {
        const target = this.parseExpression(5);
        if (target.kind !== "Property") throw this.errorAt(start, "UnexpectedSyntax", "SET expects a property, a variable or labels");
        this.expectPunct("=");
        items.push({ kind: "SetProperty", span: this.span(start), target, value: this.parseExpression() });
      }
    } while (this.acceptPunct(","));
    return items;
  }

  private parseRemoveItems(): RemoveItem[] {
    const items: RemoveItem[] = [];
    do {
      const start = this.peek().start;
      if (this.isName() && this.isPunct(":", 1)) {
        const variable = this.expectName();
        const labels: string[] = [];
        while (this.acceptPunct(":")) labels.push(this.expectName("a label"));
        items.push({ kind: "RemoveLabels", span: this.span(start), variable, labels });
      } else {
        const target = this.parseExpression(5);
        if (target.kind !== "Property") throw this.errorAt(start, "UnexpectedSyntax", "REMOVE expects a property or labels");
        items.push({ kind: "RemoveProperty", span: this.span(start), target });
      }
    } while (this.acceptPunct(","));
    return items;
  }

  private parseCall(start: number): Clause {
    this.next();
    if (this.acceptPunct("{")) {
      const body = this.nested(() => this.parseUnion());
      this.expectPunct("}");
      return { kind: "CallSubquery", span: this.span(start), body };
    }
    throw this.errorAt(start, "UnsupportedProcedureCall", "procedure calls (CALL name(...)) are not supported");
  }

  /** `CREATE INDEX [name] [IF NOT EXISTS] FOR (n:L) ON (n.p)`, the relationship form, or `ON :L(p)`. */
  private parseCreateIndex(start: number): Clause {
    this.expectKeyword("INDEX");
    if (this.isName() && !this.isKeyword("FOR") && !this.isKeyword("ON") && !this.isKeyword("IF")) this.next();
    if (this.acceptKeyword("IF")) {
      this.expectKeyword("NOT");
      this.expectKeyword("EXISTS");
    }
    const target = this.parseIndexTarget();
    return { kind: "CreateIndex", span: this.span(start), ...target };
  }

  private parseDropIndex(start: number): Clause {
    this.expectKeyword("INDEX");
    const target = this.parseIndexTarget();
    return { kind: "DropIndex", span: this.span(start), ...target };
  }

  private parseIndexTarget(): { entity: "node" | "relationship"; token: string; properties: string[] } {
    if (this.acceptKeyword("ON")) {
      this.expectPunct(":");
      const token = this.expectName("a label");
      this.expectPunct("(");
      const properties: string[] = [];
      do properties.push(this.expectName("a property key"));
      while (this.acceptPunct(","));
      this.expectPunct(")");
      return { entity: "node", token, properties };
    }
    this.expectKeyword("FOR");
    const pattern = this.parsePatternPart(false);
    const rel = pattern.rels[0];
    const node = pattern.nodes[0];
    let entity: "node" | "relationship";
    let variable: string | null;
    let token: string | undefined;
    if (rel !== undefined && pattern.rels.length === 1) {
      entity = "relationship";
      variable = rel.variable;
      token = rel.types[0];
    } else if (node !== undefined && pattern.rels.length === 0) {
      entity = "node";
      variable = node.variable;
      token = node.labels[0];
    } else throw this.unexpected("expected (n:Label) or ()-[r:TYPE]-() in FOR");
    if (token === undefined || variable === null) throw this.unexpected("an index needs a variable and a label or type");
    this.expectKeyword("ON");
    this.expectPunct("(");
    const properties: string[] = [];
    do {
      const owner = this.expectName("a variable");
      if (owner !== variable) throw this.unexpected(`expected ${variable}.property`);
      this.expectPunct(".");
      properties.push(this.expectName("a property key"));
    } while (this.acceptPunct(","));
    this.expectPunct(")");
    return { entity, token, properties };
  }
}
