// Tokenizer throughput: `npx tsx bench/tokenize.ts`. Prints tokens/s over a synthetic mixed corpus.
import { tokenize } from "../src/engines/bm25/tokenize.js";

const vocabulary =
  "the quick brown fox jumps over lazy dogs while engineers deploy services to production on 2024-05-01 at 10:30am email ops@example.com see https://example.com/runbook #incident @oncall running runners ran".split(
    " ",
  );
let seed = 7;
function next(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed;
}
const docs = Array.from({ length: 20_000 }, () => Array.from({ length: 40 }, () => vocabulary[next() % vocabulary.length]).join(" ") + ".");

for (const d of docs.slice(0, 500)) tokenize(d);
const started = performance.now();
let terms = 0;
let rawTokens = 0;
for (const d of docs) {
  terms += tokenize(d).length;
  rawTokens += d.split(/\s+/).length;
}
const seconds = (performance.now() - started) / 1000;
console.log(`docs: ${docs.length}, input words: ${rawTokens}, output terms: ${terms}`);
console.log(
  `time: ${seconds.toFixed(2)} s, ${Math.round(rawTokens / seconds).toLocaleString("en")} input tokens/s, ${Math.round(docs.length / seconds).toLocaleString("en")} docs/s`,
);
