import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CypherError, MemoryGraphStore, executeCypher } from "../../src/engines/cypher/index.js";
import { randomAb } from "../helpers/random-ab.js";

type Options = Parameters<typeof executeCypher>[3];

function matches(s: string, pattern: string, options?: Options): unknown {
  return executeCypher(new MemoryGraphStore(), "RETURN $s =~ $p AS m", { s, p: pattern }, options).rows[0]?.m;
}

function refusal(s: string, pattern: string, options?: Options): CypherError {
  try {
    matches(s, pattern, options);
  } catch (e) {
    if (e instanceof CypherError) return e;
    throw e;
  }
  assert.fail(`'${pattern}' was accepted`);
}

describe("=~ runs in linear time", () => {
  // Backtracking engines take about 2^n steps on these (years at n = 45); the linear engine, microseconds.
  test("nested quantifiers on a long non-matching string answer at once", { timeout: 10_000 }, () => {
    const hostile = `${"a".repeat(45)}!`;
    for (const p of ["(a+)+$", "(a|a)*", "(a|aa)+", "(.*a){12}", "(?:a*)*b", "^(([a-z])+.)+[A-Z]([a-z])+$"]) {
      assert.equal(matches(hostile, p), false, p);
    }
    assert.equal(matches("a".repeat(100_000), "(a+)+"), true);
  });

  test("a match larger than GRAPH_MAX_REGEX_WORK is refused before it runs: ResourceLimitError", () => {
    const e = refusal(randomAb(100_000), "(?s:.*)a[ab]{1000}c");
    assert.equal(e.type, "ResourceLimitError");
    assert.match(e.message, /string of 100000 characters against a regular expression of \d+ instructions exceeds the budget of 20000000 steps/);
    // The same match within a raised budget runs.
    assert.equal(matches(randomAb(2_000), "(?s:.*)a[ab]{1000}c", { maxRegexWork: 10_000_000 }), false);
  });

  test("a pattern that would compile to too many instructions is refused before compiling", () => {
    const e = refusal("x", "x{1000}".repeat(100));
    assert.equal(e.type, "ResourceLimitError");
    assert.match(e.message, /would compile to more than 20000 instructions/);
  });

  test("many costly matches are charged to the time budget between the engine's clock reads", { timeout: 20_000 }, () => {
    // Each match takes milliseconds; the engine reads its clock once per 1,024 rows, so without the
    // charge these 5,000 rows would run for many seconds past a 300 ms budget.
    const s = randomAb(8_000);
    const started = performance.now();
    assert.throws(
      () =>
        executeCypher(
          new MemoryGraphStore(),
          "UNWIND range(1, 5000) AS i WITH i WHERE $s =~ '(?s:.*)a[ab]{1000}c' RETURN count(i) AS n",
          { s },
          { timeoutMs: 300 },
        ),
      (e: unknown) => e instanceof CypherError && e.type === "TimeoutError",
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 5_000, `stopped ${elapsed.toFixed(0)} ms after a 300 ms budget`);
  });
});

describe("=~ keeps Java's regular expression semantics", () => {
  const cases: [string, string, boolean][] = [
    // Pattern.matches: the whole string.
    ["abc", "b", false],
    ["abc", "a.c", true],
    ["abc", "abc|x", true],
    ["", "", true],
    // The dot excludes Java's line terminators unless (?s); (?d) leaves only \n.
    ["a\nc", "a.c", false],
    ["a\rc", "a.c", false],
    ["a\u2028c", "a.c", false],
    ["a\nc", "(?s)a.c", true],
    ["a\nc", "(?s:a).c", false],
    ["a\nc", "a(?s:.)c", true],
    ["a\rc", "(?d)a.c", true],
    ["a\nc", "(?d)a.c", false],
    ["a\nc", "(?s)a(?-s).c", false],
    ["a\nc", "[.]", false],
    // Flags: scoped, set and cleared.
    ["ABC", "(?i)abc", true],
    ["aBC", "a(?i)bc", true],
    ["aBC", "a(?i:b)c", false],
    ["AB", "(?i)a(?-i)b", false],
    ["a\nb", "(?m)a$\\n^b", true],
    ["é", "(?iu)É", true],
    // Java's \s includes \x0B; \h, \v, \R and \S, \H, \V.
    ["x\u000by", "x\\sy", true],
    ["x\u000by", "x[\\s]y", true],
    ["x\u000by", "x\\Sy", false],
    ["x\u000by", "x[^\\s]y", false],
    ["\u00a0", "\\h", true],
    ["\n", "\\h", false],
    ["\f", "\\v", true],
    ["a", "[\\H]", true],
    ["\r\n", "\\R", true],
    ["\u2029", "\\R", true],
    // Escapes.
    ["é", "\\u00e9", true],
    ["😀", "\\uD83D\\uDE00", true],
    ["😀", ".", true],
    ["A", "\\x41", true],
    ["A", "\\x{41}", true],
    ["A", "\\0101", true],
    ["\u001b", "\\e", true],
    ["\u0001", "\\cA", true],
    ["a.c", "\\Qa.c\\E", true],
    ["abc", "\\Qa.c\\E", false],
    ["a+b", "a\\+b", true],
    ["<", "\\<", true],
    ["é", "\\é", true],
    ["1a_", "\\d\\w\\W?_", true],
    ["ab", "\\bab\\b", true],
    // Classes.
    ["]", "[]]", true],
    ["b", "[^]a]", true],
    ["a-", "[a-]+", true],
    ["^", "[a^]", true],
    // Properties: Unicode categories and scripts, Java's Is prefix, POSIX names (ASCII, as in Java).
    ["é", "\\p{L}", true],
    ["é", "\\p{IsL}", true],
    ["é", "\\p{Ll}", true],
    ["α", "\\p{IsGreek}", true],
    ["α", "\\p{sc=Greek}", true],
    ["a", "\\p{Lower}", true],
    ["é", "\\p{Lower}", false],
    ["é", "\\P{ASCII}", true],
    ["a1", "[\\p{Alpha}\\p{Digit}]+", true],
    // Lookbehind, which RE2 runs without captures in linear time.
    ["ab", "a(?<=a)b", true],
    ["ab", "a(?<!a)b", false],
    // Named groups, lazy quantifiers, counted repetition.
    ["ab", "(?<first>a)b", true],
    ["aaa", "a+?", true],
    ["aaa", "a{2,3}", true],
    ["aaaa", "a{2,3}", false],
    ["aa", "a{2,}", true],
  ];
  for (const [s, p, expected] of cases) {
    test(`${JSON.stringify(s)} =~ ${JSON.stringify(p)} is ${expected}`, () => assert.equal(matches(s, p), expected));
  }

  test("null on either side is null, as is a non-string", () => {
    const rows = executeCypher(new MemoryGraphStore(), "RETURN null =~ 'a' AS a, 'a' =~ null AS b, 1 =~ 'a' AS c").rows;
    assert.deepEqual(rows, [{ a: null, b: null, c: null }]);
  });

  test("a pattern is compiled once and stays right when reused across rows", () => {
    const rows = executeCypher(new MemoryGraphStore(), "UNWIND ['ab', 'AB', 'abc'] AS s RETURN s, s =~ '(?i)ab' AS m").rows;
    assert.deepEqual(rows, [
      { s: "ab", m: true },
      { s: "AB", m: true },
      { s: "abc", m: false },
    ]);
  });
});

describe("=~ refuses what the linear engine cannot run, with a clear error", () => {
  const unsupported: [string, RegExp][] = [
    ["(a)\\1", /backreferences/],
    ["(?<n>a)\\k<n>", /named backreferences/],
    ["(?=a)a", /lookahead/],
    ["(?!b)a", /lookahead/],
    ["(?>a)", /atomic groups/],
    ["a*+", /possessive quantifiers/],
    ["a{2}+", /possessive quantifiers/],
    ["(?x) a", /comments mode/],
    ["(?U)\\w", /Unicode character classes/],
    ["[a-z&&[^e]]", /intersections of character classes/],
    ["[a[b]]", /unions of character classes/],
    ["a\\Z", /\\Z/],
    ["\\p{javaLowerCase}", /character property/],
    ["\\p{InGreek}", /character property/],
    ["\\p{IsAlphabetic}", /character property/],
    ["(?<=(a))b", /groups inside lookbehind/],
  ];
  for (const [p, reason] of unsupported) {
    test(`'${p}' is an UnsupportedError naming the construct`, () => {
      const e = refusal("a", p);
      assert.equal(e.type, "UnsupportedError");
      assert.match(e.message, reason);
      assert.match(e.message, /linear-time regular expression engine/);
    });
  }

  const invalid: [string, RegExp][] = [
    ["(", /missing closing \)/],
    ["a)", /unmatched closing/],
    ["[a", /unclosed character class/],
    ["a{", /illegal repetition/],
    ["a{1001}", /invalid repeat count/],
    ["*a", /missing argument to repetition/],
    ["\\", /end of pattern/],
    ["\\uZZZZ", /hexadecimal/],
    ["\\q", /escape sequence \\q/],
    ["(?y)", /unknown inline flag/],
    ["\\p{NoSuchThing}", /invalid character class range/],
  ];
  for (const [p, reason] of invalid) {
    test(`'${p}' is an ArgumentError quoting the pattern`, () => {
      const e = refusal("a", p);
      assert.equal(e.type, "ArgumentError");
      assert.match(e.message, /invalid regular expression '/);
      assert.match(e.message, reason);
    });
  }
});
