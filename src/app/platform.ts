import { SharedEmbedder } from "../engines/embeddings/shared-embedder.js";
import { ParserPool } from "../engines/documents/parse/index.js";
import { ExtractionPool } from "../engines/extraction/extraction-pool.js";
import { TermCounter } from "../engines/bm25/term-counter.js";
import type { Config } from "../platform/config.js";
import { JobQueue } from "../platform/jobs/queue.js";
import { createLogger, type Logger } from "../platform/logger.js";
import { openStore, type Store } from "../platform/store/db.js";
import { migrate } from "../platform/store/migrate.js";
import { storeSpace, worthCompacting } from "../platform/store/compact.js";
import { Metrics } from "../platform/metrics/metrics.js";
import { BackgroundTurns } from "../platform/util/background-turns.js";
import { inSystemScope } from "../platform/store/row-scope.js";
import { openSecrets, type Secrets } from "../platform/secrets/secrets.js";

/** What every feature builds on. */
export interface Platform {
  readonly logger: Logger;
  /** The process's Prometheus instruments (GET /metrics); what reports events gets it from here. */
  readonly metrics: Metrics;
  readonly store: Store;
  /** Secrets at rest (connector credentials, webhook signing secrets, the file-URL secret), sealed under the master key. */
  readonly secrets: Secrets;
  /** Enqueueing wakes this process's workers (they subscribe when built); other processes poll. */
  readonly queue: JobQueue;
  readonly embedder: SharedEmbedder;
  /** Entity extraction off the request thread (graph building, query names). */
  readonly extraction: ExtractionPool;
  /** BM25 tokenization of ingested chunks off the request thread. */
  readonly terms: TermCounter;
  /** Uploaded files are parsed here, bounded in time and memory, off the request thread. */
  readonly parsers: ParserPool;
  /** Turns for the ingestion pipeline's steps on the request thread, one per pass of the event loop. */
  readonly background: BackgroundTurns;
  /**
   * The clock (epoch ms) of everything that expires: memory expiry_time (ingest sets it; query,
   * list, inspect, edit hide what has passed; maintenance purges it). Default Date.now; tests pass
   * a clock they can advance instead of sleeping.
   */
  readonly now: () => number;
}

/** What the composition root takes besides configuration. */
export interface ApplicationOptions {
  readonly now?: () => number;
}

/** The logger first, then the store (migrated), the job queue and the embedder. */
export async function buildPlatform(config: Config, options: ApplicationOptions = {}): Promise<Platform> {
  const logger = createLogger(config);
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, walSizeLimitBytes: config.sqliteWalLimitBytes });
  try {
    return await onStore(config, options, logger, store);
  } catch (err) {
    // A start that fails here (a migration, row security) leaves no store open behind it.
    await store.close().catch(() => undefined);
    throw err;
  }
}

async function onStore(config: Config, options: ApplicationOptions, logger: Logger, store: Store): Promise<Platform> {
  await migrate(store);
  const rowSecurity = await store.enforceRowSecurity();
  if (rowSecurity.mode === "off") {
    logger.warn({ loginRole: rowSecurity.loginRole }, `PostgreSQL row-level security is OFF (the second wall between organizations): ${rowSecurity.reason}`);
  }
  const space = store.backend === "sqlite" ? await storeSpace(store) : null;
  if (space !== null && worthCompacting(space)) {
    const mb = (bytes: number): number => Math.round(bytes / 1_048_576);
    logger.info(
      { storeMb: mb(space.bytes), freeMb: mb(space.freeBytes ?? 0) },
      "part of the store file is free pages (left by deletions or a migration); `context-store store compact`, with the service stopped, returns them to the file system",
    );
  }
  const secrets = await inSystemScope(() => openSecrets(config, store.db, logger, Date.now()));
  const metrics = new Metrics();
  return {
    logger,
    metrics,
    store,
    secrets,
    queue: new JobQueue(store, Date.now, { "ingest.reconcile": config.reconcileIntervalMs, "connector.schedule": config.connectorScheduleMs }),
    embedder: new SharedEmbedder(config.embedding, (texts) => metrics.embedderBatch(texts)),
    extraction: new ExtractionPool(config.extractionWorkers, config.indexingNice),
    terms: new TermCounter(config.indexingNice),
    parsers: new ParserPool({ size: config.parseWorkers, memoryMb: config.parseWorkerMemoryMb, nice: config.indexingNice }),
    background: new BackgroundTurns(),
    now: options.now ?? Date.now,
  };
}

/**
 * Closes what the platform holds (its worker threads, started on first use, and the store), for a
 * start that fails after buildPlatform: nothing of it may outlive the failure in a process that
 * goes on (a test, an embedding caller). Errors while closing are dropped: the start's own error
 * is the one to report.
 */
export async function closePlatform(platform: Platform): Promise<void> {
  const { embedder, extraction, terms, parsers, store } = platform;
  await Promise.allSettled([embedder.close(), extraction.close(), terms.close(), parsers.close()]);
  await store.close().catch(() => undefined);
}
