// Throughput of entity and relation extraction on short texts (chat turns, Slack messages).
// Usage: npm run bench:extract [-- seconds-per-case]
import { performance } from "node:perf_hooks";
import { createEntityResolver, extractEntities, extractRelations, inferMemory } from "../src/engines/extraction/index.js";

const SAMPLES = [
  "Hey @ada, can you email bob@example.com about the $1,200 invoice by Friday 3pm? #billing",
  "I went to a LGBTQ support group yesterday and it was so powerful.",
  "John Smith works at Microsoft and lives in Seattle.",
  "Caroline said she is going to Paris next month with Melanie.",
  "ENG-123 was assigned to Alice Walker, see https://linear.app/acme/issue/ENG-123",
  "The transgender stories were so inspiring! I was so happy and thankful for all the support.",
  "We upgraded to Node 20 last week and the build is 20% faster.",
  "Thanks, that sounds great. Talk soon!",
];

const seconds = Number(process.argv[2] ?? "2");

function measure(name: string, run: (text: string, index: number) => void): void {
  for (let i = 0; i < 50; i += 1) run(`${SAMPLES[i % SAMPLES.length] ?? ""} ${i}`, i);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (let i = 0; i < 50; i += 1, count += 1) run(`${SAMPLES[count % SAMPLES.length] ?? ""} ${count}`, count);
  }
  const perSecond = count / ((performance.now() - start) / 1000);
  console.log(`${name.padEnd(44)} ${Math.round(perSecond).toString().padStart(7)} docs/s`);
}

const resolver = createEntityResolver({ database: "bench", collection: "bench" });
measure("extractEntities fast (wink only)", (text) => void extractEntities(text, { mode: "fast", reference: "2024-03-05" }));
measure("extractEntities full (wink + compromise)", (text) => void extractEntities(text, { reference: "2024-03-05" }));
measure("extractEntities full + extractRelations", (text, i) => {
  const entities = extractEntities(text, { reference: "2024-03-05" });
  extractRelations(text, entities, { chunkId: `c${i}`, timestamp: "2024-03-05T00:00:00Z", resolver, speaker: { name: "Sam" } });
});
measure("inferMemory (rules)", (text) => void inferMemory(text, { userName: "Sam" }));
