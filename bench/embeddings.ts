// Local embedder throughput: `npx tsx bench/embeddings.ts [sentences]`. Prints sentences/s for 1
// and 2 worker threads on the same synthetic sentences (short, chat-like, 8-20 words).
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";

const count = Number(process.argv[2] ?? 2000);
const words =
  "team meeting tomorrow about the launch plan budget review customer asked for a refund because delivery was late please update the ticket status and notify engineering".split(
    " ",
  );
const sentences = Array.from({ length: count }, (_, i) => {
  const n = 8 + (i % 13);
  return Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ") + ` #${i}`;
});

for (const workers of [1, 2]) {
  const loadStart = performance.now();
  const embedder = await createLocalEmbedder({ workers, batchSize: 32 });
  const loadMs = performance.now() - loadStart;
  await embedder.embed(sentences.slice(0, 64));
  const started = performance.now();
  const vectors = await embedder.embed(sentences);
  const seconds = (performance.now() - started) / 1000;
  await embedder.close();
  console.log(
    `workers=${workers}: load ${Math.round(loadMs)} ms, ${vectors.length} sentences in ${seconds.toFixed(1)} s = ${Math.round(vectors.length / seconds)} sentences/s`,
  );
}
