// `npm run screenshots [-- name ...]`: starts the service on a temporary store, loads a little
// sample data through the public API, opens each console screen in headless Chromium and writes
// docs/console/<name>.png. With names, only those screens. To add a screen, add an entry to SCREENS
// (a `prepare` step can fill a form or click before the picture is taken).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { launchBrowser, newConsolePage, openConsole, screenshot } from "../test/helpers/browser.js";
import { graphScreens } from "./console-screenshots-graph.js";

interface Screen {
  readonly name: string;
  readonly hash: string;
  /** Runs on the open screen before the picture (fill a form, wait for data). */
  readonly prepare?: (page: Page) => Promise<void>;
}

const GUIDE = [
  "# Deployment guide",
  "",
  "## Requirements",
  "",
  "The service needs Node 20 and, optionally, PostgreSQL 15 with pgvector.",
  "",
  "## Rollback",
  "",
  "To roll back a release, redeploy the previous container tag and run the migrations check.",
  "If the migrations changed the schema, restore the nightly snapshot first.",
  "",
].join("\n");
const PRICES = ["plan,seats,price_eur", "starter,5,49", "team,25,199", "enterprise,250,1490", ""].join("\n");

// The graph, Cypher, connector and webhook screens bring their own sample data and local fakes.
const graph = await graphScreens();
const SCREENS: readonly Screen[] = [
  { name: "databases", hash: "#/databases", prepare: (page) => page.getByTestId("collections-list").waitFor() },
  {
    name: "upload",
    hash: "#/upload",
    prepare: async (page) => {
      await page.getByTestId("file-input").setInputFiles([
        { name: "runbook.md", mimeType: "text/markdown", buffer: Buffer.from(GUIDE.replace("Deployment guide", "Runbook")) },
        { name: "plans.csv", mimeType: "text/csv", buffer: Buffer.from(PRICES.replace("starter", "solo")) },
      ]);
      await page.getByTestId("upload-status").getByText("completed", { exact: true }).nth(1).waitFor({ timeout: 120_000 });
    },
  },
  { name: "items", hash: "#/items", prepare: (page) => page.getByTestId("item-link").first().waitFor() },
  { name: "item", hash: "#/items/guide", prepare: (page) => page.getByTestId("item-content").waitFor() },
  {
    name: "query",
    hash: "#/query",
    prepare: async (page) => {
      await page.getByTestId("query-text").fill("How do I roll back a release?");
      await page.getByTestId("run-query").click();
      await page.getByTestId("result-chunk").first().waitFor();
      await page.getByTestId("thumbs-up").click();
      await page.getByTestId("feedback-recorded").waitFor();
    },
  },
  ...graph.screens,
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !SCREENS.some((s) => s.name === w));
if (unknown.length > 0) throw new Error(`unknown screens: ${unknown.join(", ")} (known: ${SCREENS.map((s) => s.name).join(", ")})`);
const screens = wanted.length === 0 ? SCREENS : SCREENS.filter((s) => wanted.includes(s.name));

const dataDir = mkdtempSync(join(tmpdir(), "cs-screens-"));
const key = `screens-${randomBytes(24).toString("hex")}`;
const config = loadConfig({
  ...process.env,
  ...graph.env,
  PORT: "0",
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  BOOTSTRAP_API_KEY: key,
  LOG_LEVEL: "warn",
  JOB_POLL_MS: "50",
});
const app = await createApplication(config);
await app.server.listen({ port: 0, host: "127.0.0.1" });
app.worker.start();
const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body instanceof FormData || body === undefined ? {} : { "content-type": "application/json" }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function seed(): Promise<void> {
  await api("POST", "/databases", { database: "demo", database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
  await api("POST", "/databases", { database: "support_archive" });
  await until("the databases", async () => {
    const ready = await Promise.all(["demo", "support_archive"].map((d) => api("GET", `/databases/status?database=${d}`)));
    return ready.every((r) => (r.data as { infra: { ready_for_ingestion: boolean } }).infra.ready_for_ingestion);
  });
  const form = new FormData();
  form.append("database", "demo");
  form.append("type", "knowledge");
  form.append(
    "document_metadata",
    JSON.stringify([
      { id: "guide", title: "Deployment guide" },
      { id: "prices", title: "Price list" },
    ]),
  );
  form.append("metadata", JSON.stringify({ team: "platform" }));
  form.append("files", new Blob([GUIDE], { type: "text/markdown" }), "guide.md");
  form.append("files", new Blob([PRICES], { type: "text/csv" }), "prices.csv");
  await api("POST", "/context/ingest", form);
  const tickets = [
    {
      id: "ticket-101",
      type: "ticket",
      title: "Rollback failed on staging",
      content: { text: "The rollback to v1.8 failed: migrations check reported a newer schema." },
      metadata: { team: "platform" },
    },
    {
      id: "ticket-102",
      type: "ticket",
      title: "Export invoices as CSV",
      content: { text: "Finance asks for a CSV export of invoices." },
      metadata: { team: "billing" },
      relations: { ids: ["prices"] },
    },
    {
      id: "ticket-103",
      type: "ticket",
      title: "Seats above the team plan",
      content: { text: "A customer on the team plan needs 40 seats." },
      metadata: { team: "billing" },
      relations: { ids: ["ticket-102"] },
    },
  ];
  await api("POST", "/context/ingest", { database: "demo", type: "knowledge", app_knowledge: tickets });
  await api("POST", "/context/ingest", {
    database: "demo",
    collection: "team_a",
    type: "knowledge",
    app_knowledge: [{ id: "note-1", type: "note", title: "Team A notes", content: { text: "Standup at 9:30." } }],
  });
  await api("POST", "/context/ingest", {
    database: "demo",
    type: "memory",
    memories: [{ id: "pref-1", title: "Answer style", text: "Prefers short answers with a command to run.", infer: false }],
  });
  const ids = ["guide", "prices", ...tickets.map((t) => t.id)];
  await until("indexing", async () => {
    const res = await api("GET", `/context/status?database=demo&${ids.map((i) => `ids=${encodeURIComponent(i)}`).join("&")}`);
    return (res.data as { statuses: { indexing_status: string }[] }).statuses.every((s) => ["completed", "errored"].includes(s.indexing_status));
  });
}

const outDir = resolve("docs", "console");
mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();
try {
  await seed();
  await graph.seed(api, until);
  for (const screen of screens) {
    const { page, context } = await newConsolePage(browser);
    await openConsole(page, base, key, screen.hash);
    await page.getByTestId("database-picker").selectOption("demo");
    await screen.prepare?.(page);
    console.log(`wrote ${await screenshot(page, screen.name, outDir, false)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await app.close();
  await graph.close();
  rmSync(dataDir, { recursive: true, force: true });
}
