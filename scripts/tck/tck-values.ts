/**
 * Parser for the value notation used in TCK result tables and parameter tables:
 * null, booleans, integers, floats (incl. NaN, Inf, -Inf), 'strings', [lists], {maps},
 * nodes (:A:B {k: v}), relationships [:T {k: v}] and paths <(a)-[:T]->(b)>.
 */
export type Expected =
  | { readonly kind: "null" }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "list"; readonly items: readonly Expected[] }
  | { readonly kind: "map"; readonly entries: readonly (readonly [string, Expected])[] }
  | { readonly kind: "node"; readonly labels: readonly string[]; readonly props: readonly (readonly [string, Expected])[] }
  | { readonly kind: "rel"; readonly type: string; readonly props: readonly (readonly [string, Expected])[] }
  | { readonly kind: "path"; readonly start: Expected; readonly hops: readonly PathHop[] };

export interface PathHop {
  readonly rel: Expected;
  readonly forward: boolean;
  readonly node: Expected;
}

export function parseTckValue(text: string): Expected {
  const p = new ValueParser(text.trim());
  const v = p.value();
  p.skipWs();
  if (!p.done()) throw new Error(`trailing input in TCK value: ${text}`);
  return v;
}

class ValueParser {
  private i = 0;

  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  skipWs(): void {
    while (/\s/.test(this.s[this.i] ?? "")) this.i++;
  }

  private peek(): string {
    this.skipWs();
    return this.s[this.i] ?? "";
  }

  private expect(c: string): void {
    if (this.peek() !== c) throw new Error(`expected '${c}' at ${this.i} in ${this.s}`);
    this.i++;
  }

  private accept(c: string): boolean {
    if (this.peek() !== c) return false;
    this.i++;
    return true;
  }

  value(): Expected {
    const c = this.peek();
    if (c === "'" || c === '"') return { kind: "string", value: this.string() };
    if (c === "[") return this.listOrRel();
    if (c === "{") return { kind: "map", entries: this.entries() };
    if (c === "(") return this.node();
    if (c === "<") return this.path();
    const rest = this.s.slice(this.i);
    const word = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(?![A-Za-z_])/.exec(rest)?.[0] ?? /^-?[A-Za-z0-9_.+]+/.exec(rest)?.[0] ?? "";
    this.i += word.length;
    if (word === "null") return { kind: "null" };
    if (word === "true" || word === "false") return { kind: "bool", value: word === "true" };
    if (word === "NaN") return { kind: "float", value: Number.NaN };
    if (word === "Inf" || word === "Infinity") return { kind: "float", value: Infinity };
    if (word === "-Inf" || word === "-Infinity") return { kind: "float", value: -Infinity };
    if (/^-?\d+$/.test(word)) return { kind: "int", value: BigInt(word) };
    if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(word)) return { kind: "float", value: Number(word) };
    throw new Error(`cannot parse TCK value at ${this.i}: ${this.s}`);
  }

  private string(): string {
    const quote = this.s[this.i];
    this.i++;
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== quote) {
      if (this.s[this.i] === "\\" && this.i + 1 < this.s.length) {
        this.i++;
      }
      out += this.s[this.i];
      this.i++;
    }
    this.i++;
    return out;
  }

  private name(): string {
    this.skipWs();
    if (this.s[this.i] === "`") {
      const end = this.s.indexOf("`", this.i + 1);
      const n = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return n;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))?.[0] ?? "";
    this.i += m.length;
    return m;
  }

  private entries(): [string, Expected][] {
    this.expect("{");
    const out: [string, Expected][] = [];
    if (this.accept("}")) return out;
    do {
      const k = this.name();
      this.expect(":");
      out.push([k, this.value()]);
    } while (this.accept(","));
    this.expect("}");
    return out;
  }

  private listOrRel(): Expected {
    this.expect("[");
    if (this.peek() === ":") {
      this.i++;
      const type = this.name();
      const props = this.peek() === "{" ? this.entries() : [];
      this.expect("]");
      return { kind: "rel", type, props };
    }
    const items: Expected[] = [];
    if (this.accept("]")) return { kind: "list", items };
    do items.push(this.value());
    while (this.accept(","));
    this.expect("]");
    return { kind: "list", items };
  }

  private node(): Expected {
    this.expect("(");
    const labels: string[] = [];
    while (this.accept(":")) labels.push(this.name());
    const props = this.peek() === "{" ? this.entries() : [];
    this.expect(")");
    return { kind: "node", labels, props };
  }

  private path(): Expected {
    this.expect("<");
    const start = this.node();
    const hops: PathHop[] = [];
    while (this.peek() === "-" || this.peek() === "<") {
      const back = this.accept("<");
      this.expect("-");
      const rel = this.listOrRel();
      this.expect("-");
      const fwd = this.accept(">");
      hops.push({ rel, forward: fwd && !back, node: this.node() });
    }
    this.expect(">");
    return { kind: "path", start, hops };
  }
}
