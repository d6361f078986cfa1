// An OpenAI-compatible embeddings endpoint that answers at once, standing in for a fast GPU
// embedder a user brings (bench:ingest with BENCH_EMBEDDER=instant). Run as its own process, as a
// real endpoint would be, so that its work is not the pipeline's: `tsx bench/instant-embeddings-server.ts`
// prints `listening <url>` on stdout. POST /v1/embeddings answers each input with a fixed vector:
// - with INSTANT_VECTORS naming a file (a JSON map of text to base64 little-endian float32, see
//   instant-vectors.ts), the vector it holds for that text: our offline encoder's embedding;
// - otherwise, or for a text the file lacks, one of 1,024 fixed random unit vectors chosen by a hash
//   of the text (the vector index's worst case).
// Floats, or little-endian float32 in base64 when asked for (`encoding_format: "base64"`). On
// SIGTERM it prints to stderr how many texts it answered from each. INSTANT_DIMENSIONS sets the
// size (default 512, that of the default local model).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const dimensions = Number(process.env.INSTANT_DIMENSIONS ?? 512);
const POOL = 1024;

// A fixed pseudo-random pool (mulberry32 from seed 1), each vector normalised, serialised once.
let state = 1;
const random = (): number => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const floats: string[] = [];
const base64: string[] = [];
for (let i = 0; i < POOL; i++) {
  const v = new Float32Array(dimensions);
  let norm = 0;
  for (let d = 0; d < dimensions; d++) {
    v[d] = random() * 2 - 1;
    norm += v[d]! * v[d]!;
  }
  for (let d = 0; d < dimensions; d++) v[d] = v[d]! / Math.sqrt(norm);
  floats.push(JSON.stringify(Array.from(v)));
  base64.push(JSON.stringify(Buffer.from(v.buffer).toString("base64")));
}

const hash = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) % POOL;
};

const precomputed = new Map<string, string>(
  process.env.INSTANT_VECTORS ? Object.entries(JSON.parse(readFileSync(process.env.INSTANT_VECTORS, "utf8")) as Record<string, string>) : [],
);
const answered = { precomputed: 0, random: 0 };
const vectorOf = (text: string, asBase64: boolean): string => {
  const known = precomputed.get(text);
  if (known !== undefined) {
    answered.precomputed++;
    if (asBase64) return JSON.stringify(known);
    const bytes = Buffer.from(known, "base64");
    return JSON.stringify(Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4)));
  }
  answered.random++;
  return (asBase64 ? base64 : floats)[hash(text)]!;
};

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (p: Buffer) => parts.push(p));
  req.on("end", () => {
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { input: string | string[]; model: string; encoding_format?: string };
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const asBase64 = body.encoding_format === "base64";
    const data = inputs.map((text, index) => `{"object":"embedding","index":${index},"embedding":${vectorOf(text, asBase64)}}`).join(",");
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(`{"object":"list","data":[${data}],"model":${JSON.stringify(body.model)},"usage":{"prompt_tokens":0,"total_tokens":0}}`);
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => {
  console.error(`instant endpoint: ${answered.precomputed} texts answered with precomputed vectors, ${answered.random} with random ones`);
  server.close(() => process.exit(0));
});
