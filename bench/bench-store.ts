// The 100,000-chunk store the query and load benchmarks measure against. It writes 100,000
// knowledge chunks (10,000 items of 10 chunks) and 10,000 memory chunks through the store layer the
// pipeline uses (ItemStore.insertChunks with the tokenizer's postings, VectorStore.insert +
// indexAdded). Text: real conversational English, each chunk 3-6 LoCoMo turns drawn at random
// (about 70 words). Vectors: real USE-lite embeddings of `distinctVectors` distinct chunk texts,
// cycled with a small seeded perturbation (embedding 110k chunks would take ~15 minutes here).
// BENCH_DATA_DIR=<dir> keeps the written store there and reuses it on the next run (with
// DATABASE_URL, in a PostgreSQL database named bench_<folder name>, the folder holding DATA_DIR).
import { sql } from "kysely";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import pg from "pg";
import { createApplication, type Application } from "../src/app.js";
import { defaultCollectionOf } from "../src/features/databases/service.js";
import { loadConfig } from "../src/platform/config.js";
import { ItemStore, type ItemRow } from "../src/features/items/store.js";
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";
import type { Corpus } from "../src/features/items/item-types.js";
import { termFrequencies } from "../src/engines/bm25/index.js";
import { createTestDb, type TestDb } from "../test/helpers/test-db.js";
import { seededRandom } from "./bench-utils.js";
import { loadLocomo } from "./locomo.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

const PER_ITEM = 10;
const DATASET = new URL("../../shared/datasets/locomo/locomo10.json", import.meta.url).pathname;

/** LoCoMo's turns (without their date and speaker prefix) and questions: the benchmarks' English. */
export interface BenchText {
  readonly sentences: readonly string[];
  readonly questions: readonly string[];
  readonly random: () => number;
  readonly pick: <T>(list: readonly T[]) => T;
}

export function benchText(): BenchText {
  const locomo = loadLocomo(process.env.LOCOMO_PATH ?? DATASET, 10);
  const random = seededRandom();
  return {
    sentences: locomo.flatMap((c) => c.memories.map((m) => m.text.replace(/^\[[^\]]*\] [^:]+: /, ""))),
    questions: locomo.flatMap((c) => c.questions.map((q) => q.question)),
    random,
    pick: <T>(list: readonly T[]): T => {
      const value = list[Math.floor(random() * list.length)];
      if (value === undefined) throw new Error("pick from an empty list");
      return value;
    },
  };
}

export interface BenchStore {
  readonly app: Application;
  readonly db: TestDb;
  readonly backend: "sqlite" | "postgres";
  /** An API key of the organization that owns the `bench` database (created on every open). */
  readonly key: string;
  readonly chunks: number;
  /** True when the store was found in BENCH_DATA_DIR rather than written now. */
  readonly reused: boolean;
  /** True when the store lives in BENCH_DATA_DIR (found there or written there now) and outlives the run. */
  readonly kept: boolean;
}

export interface BenchStoreOptions {
  readonly chunks: number;
  readonly distinctVectors: number;
  readonly text: BenchText;
  /** Extra settings for the in-process application (WARM_UP_INDEXES=false when only a key is wanted). */
  readonly env?: Record<string, string>;
}

/** Opens (writing it first unless BENCH_DATA_DIR holds one) the `bench` database of `chunks` knowledge chunks. */
export async function openBenchStore(options: BenchStoreOptions): Promise<BenchStore> {
  // A benchmark is an operator's script: it reads and writes the store directly, across organizations.
  enterSystemScope();
  const { chunks } = options;
  const keepDir = process.env.BENCH_DATA_DIR ?? null;
  const db: TestDb = keepDir ? await keptDb(keepDir) : await createTestDb();
  const reused = keepDir !== null && (db.databaseUrl === null ? existsSync(join(keepDir, "context-store.sqlite")) : await hasBenchDatabase(db.databaseUrl));
  const config = loadConfig({
    DATA_DIR: db.dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_PER_MINUTE: "0",
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...options.env,
  });
  const app = await createApplication(config);
  const org = reused ? await app.store.db.selectFrom("organizations").selectAll().executeTakeFirstOrThrow() : await app.orgs.createOrganization("bench");
  const key = (await app.orgs.createKey(org.id, `bench-${Date.now()}`)).key;
  if (!reused) {
    const database = await app.databases.create(org.id, "bench", []);
    await app.databases.provision(database.id);
    await writeChunks(app, org.id, database, options);
  }
  return { app, db, backend: db.databaseUrl ? "postgres" : "sqlite", key, chunks, reused, kept: keepDir !== null };
}

/**
 * The kept store of BENCH_DATA_DIR: the folder itself, and with DATABASE_URL a PostgreSQL
 * database named after the folder (created when missing, never dropped).
 */
async function keptDb(dir: string): Promise<TestDb> {
  // Never removed: nothing needs stopping before a drop that does nothing.
  const kept = (url: string | null): TestDb => ({ dataDir: dir, databaseUrl: url, stopBeforeDrop: () => undefined, drop: async () => undefined });
  const base = process.env.DATABASE_URL;
  if (!base) return kept(null);
  const name = `bench_${basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  mkdirSync(dir, { recursive: true });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return kept(url.toString());
}

/** Whether the PostgreSQL database already holds the `bench` database (written by an earlier run). */
async function hasBenchDatabase(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'databases'");
    if (tables.rowCount === 0) return false;
    const rows = await client.query("SELECT 1 FROM databases WHERE name = 'bench'");
    return (rows.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

type Database = Awaited<ReturnType<Application["databases"]["get"]>>;

async function writeChunks(app: Application, orgId: string, database: Database, options: BenchStoreOptions): Promise<void> {
  const { chunks, distinctVectors, text } = options;
  const collection = defaultCollectionOf(database);
  const chunkText = (): string => Array.from({ length: 3 + Math.floor(text.random() * 4) }, () => text.pick(text.sentences)).join(" ");
  let started = performance.now();
  const embedder = await createLocalEmbedder({ workers: 2, batchSize: 32 });
  const texts = Array.from({ length: chunks + chunks / 10 }, chunkText);
  const base = await embedder.embed(texts.slice(0, distinctVectors));
  await embedder.close();
  const vectorOf = (i: number): Float32Array => {
    const source = base[i % distinctVectors];
    if (source === undefined) throw new Error(`no base vector ${i}`);
    const v = Float32Array.from(source, (x) => x + (text.random() - 0.5) * 0.01);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  console.log(`embedded ${distinctVectors} distinct texts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  started = performance.now();
  let written = 0;
  const pendingIndex: Array<{ corpus: Corpus; keys: number[]; vectors: Float32Array[] }> = [];
  const writeItems = async (corpus: Corpus, items: number, perItem: number): Promise<void> => {
    for (let n = 0; n < items; n += 50) {
      await app.store.transaction(async (tx) => {
        const store = new ItemStore(tx);
        for (let j = n; j < Math.min(items, n + 50); j++) {
          const item = itemRow(orgId, database.id, collection, corpus, `${corpus}-${j}`, text.random);
          await store.insert(item);
          const chunkTexts = texts.slice(written, written + perItem);
          const keys = await store.insertChunks(
            item,
            chunkTexts.map((content, position) => ({
              chunk_uuid: randomUUID(),
              position,
              content,
              section_path: [],
              page: null,
              unit: null,
              token_count: content.split(" ").length,
              terms: termFrequencies(content),
            })),
          );
          const vectors = keys.map((_, i) => vectorOf(written + i));
          written += perItem;
          await app.vectors.insert(tx, { orgId, databaseId: database.id, corpus, collection }, keys, vectors);
          pendingIndex.push({ corpus, keys, vectors });
        }
      });
      for (const p of pendingIndex.splice(0)) await app.vectors.indexAdded({ orgId, databaseId: database.id, corpus: p.corpus, collection }, p.keys, p.vectors);
    }
  };
  await writeItems("knowledge", chunks / PER_ITEM, PER_ITEM);
  await writeItems("memory", chunks / 10, 1);
  console.log(`wrote ${written} chunks (${chunks} knowledge, ${chunks / 10} memory) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (app.store.backend === "postgres") {
    // What an operator does after a bulk load, and autovacuum does later anyway: the planner's
    // statistics of the new rows, so the timings are those of a settled store.
    started = performance.now();
    await app.store.asOwner((tx) => sql`ANALYZE`.execute(tx));
    console.log(`analyzed the tables in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

function itemRow(orgId: string, databaseId: string, collection: string, corpus: Corpus, sourceId: string, random: () => number): ItemRow {
  const at = Date.now() - Math.floor(random() * 365 * 86_400_000);
  return {
    id: randomUUID(),
    org_id: orgId,
    database_id: databaseId,
    collection,
    corpus,
    source_id: sourceId,
    generation: 1,
    origin: corpus === "memory" ? "memory" : "app",
    title: sourceId,
    type: corpus === "memory" ? "memory" : "note",
    description: null,
    note: null,
    url: null,
    item_timestamp: at,
    metadata: "{}",
    additional_metadata: "{}",
    relations: "{}",
    acl: null,
    app_kind: null,
    app_provider: null,
    app_external_id: null,
    thread_id: null,
    parent_id: null,
    content: null,
    file_name: null,
    file_mime: null,
    content_hash: null,
    blob_id: null,
    infer: 0,
    inferred_content: null,
    custom_instructions: null,
    user_name: null,
    expires_at: null,
    status: "completed",
    error_code: null,
    message: null,
    chunk_count: PER_ITEM,
    created_at: at,
    updated_at: at,
    connector_id: null,
  };
}
