import { inSystemScope } from "../platform/store/row-scope.js";
import { type TermScope } from "../features/search/term-indexes.js";
import { warmUpIndexes } from "../features/search/warm-up.js";
import { removeStaleUploads, uploadSpoolDir } from "../features/ingestion/stale-uploads.js";
import type { App } from "../platform/http/app-type.js";
import type { WorkerPool } from "../platform/jobs/worker-pool.js";
import { shutdownWithin, type ShutdownOutcome } from "../platform/shutdown.js";
import type { Config } from "../platform/config.js";
import type { ContextFeatures } from "./context-features.js";
import type { Features } from "./features.js";
import type { Platform } from "./platform.js";

/** Share of the shutdown budget left that running jobs may take to finish before they are released. */
const JOB_DRAIN_SHARE = 0.6;

export interface WarmUp {
  /** Resolves to the scopes loaded (none when WARM_UP_INDEXES is off or loading failed). */
  readonly indexesWarm: Promise<TermScope[]>;
  /** The same scopes, once the extraction workers and the embedder have started too (or failed to). */
  readonly warm: Promise<TermScope[]>;
  readonly abort: AbortController;
}

/**
 * Loads the search indexes in the background at start (WARM_UP_INDEXES), then starts the
 * extraction workers, the embedder and, on a node that indexes, the term worker; removes upload
 * spool folders a killed process left.
 */
export function startWarmUp(config: Config, { logger, store, extraction, embedder, terms }: Platform, context: ContextFeatures, features: Features): WarmUp {
  const abort = new AbortController();
  removeStaleUploads(uploadSpoolDir(config.dataDir), Date.now()).then(
    (removed) => {
      if (removed.length > 0) logger.info({ removed }, "removed upload spool folders left by a process that died mid-upload");
    },
    (err: unknown) => logger.warn({ err }, "removing stale upload spool folders failed"),
  );
  const indexesWarm = config.warmUpIndexes
    ? inSystemScope(() => warmUpIndexes(store, features.termIndexes, context.vectors, abort.signal)).catch((err: unknown) => {
        logger.warn({ err }, "loading the search indexes at start failed; they load on first use");
        return [];
      })
    : Promise.resolve([]);
  // A store with content will be queried: the extraction workers (query names) and the
  // embedder (query vectors) start now too.
  const warm = indexesWarm.then(async (scopes) => {
    try {
      if (scopes.length > 0 && !abort.signal.aborted) {
        const started = performance.now();
        // A node that indexes starts its term worker too (it tokenizes ingested chunks).
        await Promise.all([extraction.warmUp(), embedder.warmUp(), config.ingestConcurrency > 0 ? terms.warmUp() : undefined]);
        logger.info({ ms: Math.round(performance.now() - started) }, "embedder and extraction workers started");
      }
    } catch (err) {
      logger.warn({ err }, "starting the extraction workers or the embedder failed; they start on first use");
    }
    return scopes;
  });
  return { indexesWarm, warm, abort };
}

export interface Running {
  readonly platform: Platform;
  readonly context: ContextFeatures;
  readonly features: Features;
  readonly worker: WorkerPool;
  readonly server: App;
  readonly warmUp: WarmUp;
}

/** close(): every step in order within SHUTDOWN_TIMEOUT_MS; later calls get the first call's outcome. */
export function closer(config: Config, app: Running): () => Promise<ShutdownOutcome> {
  const { platform, context, features, worker, server, warmUp } = app;
  let closing: Promise<ShutdownOutcome> | null = null;
  return () => {
    closing ??= shutdownWithin(
      config.shutdownTimeoutMs,
      [
        { name: "close the server (in-flight requests)", run: () => server.close() },
        {
          name: "stop loading indexes",
          run: async () => {
            warmUp.abort.abort();
            await warmUp.indexesWarm;
          },
        },
        // Running jobs get most of what is left; those still running then are released.
        { name: "drain jobs", run: (remaining) => worker.stop(Math.floor(remaining * JOB_DRAIN_SHARE)) },
        { name: "stop the graph query workers", run: () => features.graphArea.close() },
        { name: "write the query log", run: () => features.queryLog.flush() },
        { name: "save vector indexes", run: () => context.vectors.saveAll() },
        { name: "save search indexes", run: () => features.termIndexes.saveAll() },
        { name: "close the embedder", run: () => platform.embedder.close() },
        { name: "close the reranker", run: () => features.reranker?.close() ?? Promise.resolve() },
        { name: "close the extraction workers", run: () => platform.extraction.close() },
        { name: "close the term worker", run: () => platform.terms.close() },
        { name: "close the parser workers", run: () => platform.parsers.close() },
        { name: "close the store", run: () => platform.store.close() },
      ],
      platform.logger,
    );
    return closing;
  };
}
