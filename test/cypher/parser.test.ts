import { test } from "node:test";
import assert from "node:assert/strict";
import { tokenize } from "../../src/engines/cypher/parser/lexer.js";
import { parseQuery } from "../../src/engines/cypher/parser/parse.js";
import { CypherError } from "../../src/engines/cypher/errors.js";

void test("lexer keeps source offsets and decodes literals", () => {
  const source = "MATCH (n:`My Label`) RETURN 'a\\nb', 0x1F, 1.5e3, $p";
  const tokens = tokenize(source);
  const quoted = tokens.find((t) => t.type === "quoted");
  assert.equal(quoted?.text, "My Label");
  assert.equal(source.slice(quoted?.start, quoted?.end), "`My Label`");
  assert.equal(tokens.find((t) => t.type === "string")?.text, "a\nb");
  assert.deepEqual(
    tokens.filter((t) => t.type === "int" || t.type === "float").map((t) => [t.type, t.text]),
    [
      ["int", "0x1F"],
      ["float", "1.5e3"],
    ],
  );
  assert.equal(tokens.find((t) => t.type === "param")?.text, "p");
  assert.equal(tokens.at(-1)?.type, "eof");
});

void test("parser spans point at the source text of each node", () => {
  const source = "MATCH (a:Person)-[r:KNOWS*1..2]->(b)\nWHERE a.age > 30\nRETURN b.name AS name, count(*)";
  const query = parseQuery(source);
  assert.equal(query.kind, "SingleQuery");
  if (query.kind !== "SingleQuery") return;
  const [match, ret] = query.clauses;
  assert.equal(match?.kind, "Match");
  if (match?.kind !== "Match" || ret?.kind !== "Return") throw new Error("unexpected clauses");
  const part = match.patterns[0];
  const rel = part?.rels[0];
  assert.equal(source.slice(rel?.span.start, rel?.span.end), "-[r:KNOWS*1..2]->");
  assert.deepEqual(rel?.varLength, { min: 1, max: 2 });
  assert.equal(rel?.direction, "out");
  assert.equal(source.slice(match.where?.span.start, match.where?.span.end), "a.age > 30");
  assert.deepEqual(
    ret.items.map((i) => [i.alias, i.text]),
    [
      ["name", "b.name"],
      [null, "count(*)"],
    ],
  );
});

void test("operator precedence follows openCypher", () => {
  const q = parseQuery("RETURN NOT a = b AND c OR d, -2 ^ 2, 1 < x <= 3");
  if (q.kind !== "SingleQuery" || q.clauses[0]?.kind !== "Return") throw new Error("unexpected parse");
  const [logic, pow, chain] = q.clauses[0].items.map((i) => i.expr);
  assert.equal(logic?.kind === "Binary" && logic.op, "or");
  assert.equal(pow?.kind === "Binary" && pow.op, "^");
  assert.equal(chain?.kind === "Comparison" && chain.ops.join(","), "<,<=");
});

void test("syntax errors carry type, phase, detail and position", () => {
  assert.throws(
    () => parseQuery("MATCH (n)\nRETURN n +"),
    (e: unknown) => e instanceof CypherError && e.type === "SyntaxError" && e.phase === "compile time" && e.position?.line === 2 && /line 2/.test(e.message),
  );
  assert.throws(
    () => parseQuery("RETURN 9223372036854775808"),
    (e: unknown) => e instanceof CypherError && e.detail === "IntegerOverflow",
  );
  assert.throws(
    () => parseQuery("CALL db.labels()"),
    (e: unknown) => e instanceof CypherError && e.detail === "UnsupportedProcedureCall",
  );
});
