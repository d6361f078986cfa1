import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import { inSystemScope } from "./platform/store/row-scope.js";
import { ConfigError, describeConfig, loadConfig } from "./platform/config.js";
import { firstRunBanner } from "./features/organizations/first-run-banner.js";
import { runPrimary } from "./app/process-cluster.js";

/** Margin past SHUTDOWN_TIMEOUT_MS after which the process exits whatever is still running. */
const SHUTDOWN_BACKSTOP_MS = 100;

/** Process entry point: boot, listen, start workers, and shut down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.processes > 1 && cluster.isPrimary) return runPrimary(config);
  // Loaded here, not above: a cluster's primary process never needs the application.
  const { createApplication } = await import("./app.js");
  const app = await createApplication(config);
  // One short line at info; the whole configuration (secrets masked) is ~2 KB, for debugging.
  app.server.log.info({ port: config.port, backend: config.databaseUrl ? "postgres" : "sqlite", dataDir: config.dataDir }, "starting");
  app.server.log.debug({ config: describeConfig(config) }, "configuration");
  // A store without any organization (and no BOOTSTRAP_API_KEY) would answer nothing but 401.
  const firstRun = config.bootstrapApiKeys.length === 0 ? await inSystemScope(() => app.orgs.createFirstOrganization()) : null;
  if (cluster.isWorker && process.env.LISTEN_WHEN_WARM === "1") {
    // Its first requests would otherwise pay for loading the embedding and extraction models too.
    const scopes = await app.warm;
    app.server.log.info({ scopes: scopes.length }, "search indexes loaded before listening");
  }
  await app.server.listen({ port: config.port, host: config.host });
  const port = listeningPort(app.server.server.address(), config.port);
  if (firstRun) process.stdout.write(firstRunBanner(firstRun, config.host, port));
  app.server.log.info(`console: ${consoleUrl(config.host, port)}`);
  app.worker.start();
  // Route schemas compile on first use; the rest now, a little at a time, while requests are served.
  app.server.deferredSchemas.compileAll().catch((err: unknown) => app.server.log.error({ err }, "a route schema does not compile"));

  let signalled = false;
  const shutdown = (signal: string): void => {
    if (signalled) return;
    signalled = true;
    app.server.log.info({ signal, budgetMs: config.shutdownTimeoutMs }, "shutting down: finishing in-flight requests and releasing jobs");
    // Backstop: close() resolves by the deadline itself; nothing may keep the process past it.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + SHUTDOWN_BACKSTOP_MS).unref();
    app.close().then(
      // Something abandoned (the budget was spent): not a clean exit.
      (outcome) => process.exit(outcome.abandoned.length === 0 ? 0 : 1),
      (err: unknown) => {
        app.server.log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** Where a browser on this machine opens the console; wildcard addresses are shown as loopback. */
function consoleUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${port}/console/`;
}

function listeningPort(address: string | AddressInfo | null, fallback: number): number {
  return typeof address === "object" && address !== null ? address.port : fallback;
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`configuration error: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
