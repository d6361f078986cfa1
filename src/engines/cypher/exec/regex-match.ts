import { RE2JS, RE2JSException } from "re2js";
import { CypherError, argumentError, resourceLimitError } from "../errors.js";
import type { Value } from "../values/value.js";
import type { ExecContext } from "./context.js";
import { translateJavaRegex } from "./java-regex.js";

/**
 * Largest program a pattern may compile to (estimated before compiling). Legitimate patterns stay in
 * the hundreds; 20,000 instructions compile in about 0.1 s. Without it `x{1000}` written a thousand
 * times (7 KB) builds a million instructions and half a gigabyte.
 */
const MAX_PROGRAM_SIZE = 20_000;
/** Compiled patterns kept per worker, most recently used first; patterns longer than this are not kept. */
const CACHE_ENTRIES = 256;
const CACHE_MAX_PATTERN_LENGTH = 10_000;
/** Compiling costs about 5 us per instruction: in work units (see ExecContext.charge), about 250. */
const COMPILE_WORK_PER_INSTRUCTION = 250;

type Compiled = { readonly re: RE2JS; readonly size: number };

const cache = new Map<string, Compiled>();

const excerpt = (pattern: string): string => (pattern.length <= 80 ? pattern : `${pattern.slice(0, 80)}...`);

const invalidError = (pattern: string, reason: string): CypherError =>
  argumentError("InvalidArgumentValue", `invalid regular expression '${excerpt(pattern)}': ${reason}`);

const unsupportedError = (pattern: string, reason: string): CypherError =>
  new CypherError(
    "UnsupportedError",
    "runtime",
    "UnsupportedRegularExpression",
    `regular expression '${excerpt(pattern)}' uses ${reason}, which the linear-time regular expression engine of =~ does not support`,
  );

/** The compiled pattern, from the cache or compiled now (then its cost is charged to the query). */
function compile(pattern: string, ctx: ExecContext): Compiled {
  const cached = cache.get(pattern);
  if (cached !== undefined) {
    cache.delete(pattern);
    cache.set(pattern, cached);
    return cached;
  }
  ctx.charge(pattern.length);
  const t = translateJavaRegex(pattern);
  if (!t.ok) throw t.unsupported ? unsupportedError(pattern, t.reason) : invalidError(pattern, t.reason);
  if (t.size > MAX_PROGRAM_SIZE) {
    throw resourceLimitError(
      "RegularExpressionTooLarge",
      `regular expression '${excerpt(pattern)}' would compile to more than ${MAX_PROGRAM_SIZE} instructions`,
    );
  }
  ctx.charge(t.size * COMPILE_WORK_PER_INSTRUCTION);
  let re: RE2JS;
  try {
    re = RE2JS.compile(t.source, RE2JS.LOOKBEHINDS);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    // Java allows groups in a lookbehind; re2js runs lookbehind only without them.
    if (/capture in lookbehind/.test(e.message)) throw unsupportedError(pattern, "groups inside lookbehind (write (?:...) instead)");
    throw invalidError(pattern, e.message.replace(/^error parsing regexp: /, ""));
  }
  const compiled = { re, size: re.programSize() };
  if (pattern.length <= CACHE_MAX_PATTERN_LENGTH) {
    cache.set(pattern, compiled);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value ?? "");
  }
  return compiled;
}

/**
 * `s =~ pattern`: Java's Pattern.matches (the whole string), run in time linear in the input. A
 * match costs at most about input length x program size steps (RE2's NFA; its DFA is usually far
 * cheaper); that product is charged to the query's time budget and capped by `maxRegexWork`, so one
 * match can neither outlast the deadline by much nor hold its thread out of reach of it.
 */
export function regexMatch(s: Value, pattern: Value, ctx: ExecContext): boolean | null {
  if (s === null || pattern === null) return null;
  if (typeof s !== "string" || typeof pattern !== "string") return null;
  const { re, size } = compile(pattern, ctx);
  const work = s.length * size;
  if (work > ctx.budget.maxRegexWork) {
    throw resourceLimitError(
      "RegularExpressionTooCostly",
      `matching a string of ${s.length} characters against a regular expression of ${size} instructions exceeds the budget of ${ctx.budget.maxRegexWork} steps`,
    );
  }
  ctx.charge(work);
  return re.testExact(s);
}
