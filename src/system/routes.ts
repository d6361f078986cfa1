import type { App } from "../http/app-type.js";
import type { Store } from "../store/db.js";
import { isMigrated } from "../store/migrate.js";

const config = { auth: false, shape: "plain" as const };
const tags = ["System"];

/** Liveness and readiness for process supervisors and load balancers. */
export function registerSystemRoutes(app: App, store: Store): void {
  app.get("/healthz", { config, schema: { tags } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config, schema: { tags } }, async (_req, reply) => {
    try {
      await store.ping();
      if (!(await isMigrated(store))) return reply.code(503).send({ status: "migrating", backend: store.backend });
      return { status: "ready", backend: store.backend };
    } catch {
      return reply.code(503).send({ status: "store unreachable", backend: store.backend });
    }
  });
}
