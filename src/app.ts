import { hostname } from "node:os";
import type { Config } from "./config.js";
import { registerLegacyTenantRoutes } from "./databases/legacy-routes.js";
import { registerDatabaseRoutes } from "./databases/routes.js";
import { DatabaseService } from "./databases/service.js";
import { DatabaseStats } from "./databases/stats.js";
import { DatabaseStore } from "./databases/store.js";
import { registerGraphAreaRoutes } from "./graph-area/routes.js";
import { GraphAreaService } from "./graph-area/service.js";
import type { App } from "./http/app-type.js";
import { RateLimiter } from "./http/rate-limit.js";
import { createServer } from "./http/server.js";
import { JobQueue } from "./jobs/queue.js";
import { JobWorker, type JobHandlers } from "./jobs/worker.js";
import { OrgService } from "./orgs/service.js";
import { openStore, type Store } from "./store/db.js";
import { migrate } from "./store/migrate.js";
import { registerSystemRoutes } from "./system/routes.js";

export interface Application {
  readonly config: Config;
  readonly server: App;
  readonly store: Store;
  readonly orgs: OrgService;
  readonly databases: DatabaseService;
  readonly graphArea: GraphAreaService;
  readonly queue: JobQueue;
  readonly worker: JobWorker;
  /** Stops accepting, finishes in-flight requests, releases claimed jobs, closes the store. */
  close(): Promise<void>;
}

const COMPLETED_JOB_RETENTION_MS = 24 * 60 * 60_000;

/** The composition root: configuration -> store -> services -> routes and workers. */
export async function createApplication(config: Config): Promise<Application> {
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(store);

  const orgs = new OrgService(store);
  await orgs.bootstrap(config.bootstrapApiKeys);

  const queue = new JobQueue(store);
  let worker: JobWorker | null = null;
  const databases = new DatabaseService(store, queue, { maxDatabasesPerOrg: config.maxDatabasesPerOrg }, Date.now, () =>
    worker?.wake(),
  );
  const stats = new DatabaseStats(new DatabaseStore(store.db), () => 0);
  const graphArea = new GraphAreaService(store, databases, { maxRows: config.graphMaxRows, timeoutMs: config.graphQueryTimeoutMs });
  stats.register((row) => graphArea.counts(row));

  const handlers: JobHandlers = {
    "database.provision": async ({ databaseId }) => databases.provision(databaseId),
    "database.delete": async ({ databaseId }) => databases.purge(databaseId),
    "jobs.prune": async () => {
      await queue.prune(COMPLETED_JOB_RETENTION_MS);
    },
  };

  const server = await createServer({
    logLevel: config.logLevel,
    bodyLimitBytes: config.bodyLimitBytes,
    orgs,
    limiter: new RateLimiter(config.rateLimitPerMinute),
  });
  registerSystemRoutes(server, store);
  registerDatabaseRoutes(server, databases, stats);
  registerLegacyTenantRoutes(server, databases, stats);
  registerGraphAreaRoutes(server, graphArea);

  worker = new JobWorker(queue, handlers, {
    workerId: `${hostname()}:${process.pid}`,
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
    pollMs: config.jobPollMs,
    logger: server.log,
  });
  const activeWorker = worker;
  await server.ready();

  let closing: Promise<void> | null = null;
  return {
    config,
    server: server,
    store,
    orgs,
    databases,
    graphArea,
    queue,
    worker: activeWorker,
    close() {
      closing ??= (async () => {
        await server.close();
        await activeWorker.stop(config.shutdownTimeoutMs);
        await store.close();
      })();
      return closing;
    },
  };
}
