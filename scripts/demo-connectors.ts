// `npm run demo:connectors`: the fake provider servers (every provider of DEMO_WORKSPACES in
// test/helpers/fake-providers/demo-workspaces.ts) with a small generated workspace, beside the
// service pointed at them, and the curl commands that create, configure and sync a connector against each. Runs until Ctrl-C.
// PORT (default 8080), DATA_DIR (default: a temporary folder, removed at exit), DATABASE_URL,
// BOOTSTRAP_API_KEY and CONNECTOR_SECRET_KEY (default: generated) are read as usual.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import type { DemoWorkspace } from "../test/helpers/fake-providers/demo-workspace.js";
import { DEMO_WORKSPACES } from "../test/helpers/fake-providers/demo-workspaces.js";

const workspaces: DemoWorkspace[] = [];
for (const start of Object.values(DEMO_WORKSPACES)) workspaces.push(await start());
const tempDir = process.env.DATA_DIR ? null : mkdtempSync(join(tmpdir(), "cs-demo-"));
const key = process.env.BOOTSTRAP_API_KEY ?? `demo-${randomBytes(24).toString("hex")}`;
const config = loadConfig({
  ...process.env,
  PORT: process.env.PORT ?? "8080",
  DATA_DIR: process.env.DATA_DIR ?? tempDir!,
  BOOTSTRAP_API_KEY: key,
  CONNECTOR_SECRET_KEY: process.env.CONNECTOR_SECRET_KEY ?? randomBytes(32).toString("hex"),
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  ...Object.fromEntries(workspaces.flatMap((w) => Object.entries(w.env))),
});
const app = await createApplication(config);
await app.server.listen({ port: config.port, host: config.host });
app.worker.start();
const port = (app.server.server.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;

// The database the examples write into.
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const created = await app.server.inject({ method: "POST", url: "/databases", headers, payload: JSON.stringify({ database: "demo" }) });
if (created.statusCode !== 202 && created.statusCode !== 409) throw new Error(`creating the demo database failed: ${created.body}`);
for (;;) {
  const status = await app.server.inject({ method: "GET", url: "/databases/status?database=demo", headers: { authorization: headers.authorization } });
  if ((status.json<{ data?: { infra?: { ready_for_ingestion?: boolean } } }>().data?.infra?.ready_for_ingestion ?? false) === true) break;
  await new Promise((r) => setTimeout(r, 100));
}

const auth = `-H "Authorization: Bearer $KEY"`;
const json = `-H "Content-Type: application/json"`;
const lines = [
  "",
  `The service listens on ${base} (data in ${config.dataDir}), beside fake providers:`,
  ...workspaces.map(
    (w) =>
      `  ${w.provider.padEnd(8)} ${w.objects} objects, ${Object.entries(w.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}`,
  ),
  "",
  "Create a connector against each, configure its resources and sync it:",
  "",
  `export CS=${base} KEY=${key}`,
];
for (const w of workspaces) {
  const v = w.provider.toUpperCase();
  lines.push(
    "",
    `# ${w.provider}`,
    `${v}=$(curl -sS -X POST "$CS/connectors" ${auth} ${json} -d '${JSON.stringify({ provider: w.provider, database: "demo", credentials: w.credentials })}' | sed -E 's/.*"connector_id":"([^"]+)".*/\\1/')`,
    `curl -sS -X POST "$CS/connectors/$${v}/configure" ${auth} ${json} -d '${JSON.stringify({ resources: w.resources })}'`,
    `curl -sS -X POST "$CS/connectors/$${v}/sync" ${auth}`,
    `curl -sS "$CS/connectors/$${v}/status" ${auth}`,
    `curl -sS -X POST "$CS/query" ${auth} ${json} -d '${JSON.stringify({ database: "demo", query: w.sampleQuery, query_apps: true })}'`,
  );
}
lines.push("", "Edit nothing here: the fakes hold their workspace in memory. Ctrl-C stops everything.", "DEMO READY");
console.log(lines.join("\n"));

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await app.close();
    for (const w of workspaces) await w.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    process.exit(0);
  })();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
