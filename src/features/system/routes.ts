import type { App } from "../../platform/http/app-type.js";
import type { Store } from "../../platform/store/db.js";
import { isMigrated } from "../../platform/store/migrate.js";
import { probeDirectory } from "../../platform/store/disk-probe.js";
import { legacyErrors } from "../../platform/http/response-schemas.js";
import { HealthSchema, ReadinessSchema } from "./schemas.js";
import { workerReadiness, type WorkerProbe, type WorkerReadiness } from "./worker-readiness.js";

// Probes come every few seconds from supervisors and load balancers: their request lines are debug, not info.
const config = { auth: false, shape: "plain" as const, quietRequestLog: true };
const tags = ["System"];

/**
 * Liveness and readiness for process supervisors and load balancers. Readiness is off while
 * writes fail for want of space or permission (the store's, or a file's in `dataDir`), until the
 * store and `dataDir` each take a real write again.
 */
export function registerSystemRoutes(app: App, store: Store, workers: WorkerProbe, dataDir: string): void {
  app.get("/healthz", { config, schema: { tags, response: { 200: HealthSchema, ...legacyErrors(400, 500) } } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config, schema: { tags, response: { 200: ReadinessSchema, 503: ReadinessSchema, ...legacyErrors(400) } } }, async (req, reply) => {
    let jobs: WorkerReadiness;
    try {
      await store.ping();
      if (!(await isMigrated(store))) return reply.code(503).send({ status: "migrating", backend: store.backend });
      const failure = store.health.current;
      if (failure) {
        // Writes were failing (disk full, read-only): ready again once writes go through.
        try {
          await store.probeWrite();
          await probeDirectory(dataDir);
          store.health.recovered();
        } catch (err) {
          store.health.observe(err);
          req.log.warn({ err }, "readiness: the store still refuses writes");
          const now = store.health.current ?? failure;
          return reply.code(503).send({ status: "store not writable", backend: store.backend, reason: now.reason, since: new Date(now.since).toISOString() });
        }
      }
      jobs = await workerReadiness(workers);
    } catch (err) {
      req.log.warn({ err }, "readiness: the store is unreachable");
      return reply.code(503).send({ status: "store unreachable", backend: store.backend });
    }
    if (jobs.problem !== null) {
      req.log.warn({ reason: jobs.problem.reason }, `readiness: ${jobs.problem.status}`);
      return reply
        .code(503)
        .send({ status: jobs.problem.status, backend: store.backend, reason: jobs.problem.reason, workers: jobs.workers, queue: jobs.queue });
    }
    return { status: "ready", backend: store.backend, workers: jobs.workers, queue: jobs.queue };
  });
}
