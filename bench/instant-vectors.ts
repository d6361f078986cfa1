/**
 * The vectors bench:ingest's instant endpoint answers with: our offline encoder's own embeddings of
 * the exact chunk texts the pipeline will send, computed before the run (as bench:peers computes
 * its vectors once for every system), so that the vector index sees what a real embedder gives it:
 * one distinct vector per text, with the structure of real text. A fast GPU embedder a user brings
 * answers with such vectors, not with noise. Encoding 5,000 texts takes about a minute on two
 * cores, so the set is kept in the system's temporary folder, named by a hash of the texts, and
 * reused by later runs.
 *
 * `BENCH_INSTANT_VECTORS=random` keeps the endpoint's earlier answers instead (one of 1,024 random
 * unit vectors per text, by a hash of the text): the vector index's worst case, reported apart.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";

/** Writes (or finds) the text -> base64 float32 map for `texts`; returns its path. */
export async function precomputedVectorsFile(texts: readonly string[]): Promise<string> {
  const distinct = [...new Set(texts)];
  const digest = createHash("sha256").update("use-lite-512\0").update(distinct.join("\0")).digest("hex").slice(0, 16);
  const dir = join(tmpdir(), "context-store-bench");
  const path = join(dir, `instant-vectors-${digest}.json`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  const embedder = await createLocalEmbedder({ workers: 2, batchSize: 32 });
  const out: Record<string, string> = {};
  try {
    for (let i = 0; i < distinct.length; i += 64) {
      const batch = distinct.slice(i, i + 64);
      const vectors = await embedder.embed(batch);
      vectors.forEach((v, j) => (out[batch[j]!] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")));
    }
  } finally {
    await embedder.close();
  }
  // Written whole and then renamed, so that an interrupted run leaves no partial set behind.
  writeFileSync(`${path}.part`, JSON.stringify(out));
  renameSync(`${path}.part`, path);
  return path;
}
