/**
 * A deterministic string of a and b whose 1,000-character windows all differ: RE2's DFA runs out of
 * states on it against a pattern like `(?s:.*)a[ab]{1000}c`, and its NFA does the (linear) work.
 */
export function randomAb(length: number): string {
  let x = 7;
  let s = "";
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += (x >> 16) & 1 ? "a" : "b";
  }
  return s;
}
