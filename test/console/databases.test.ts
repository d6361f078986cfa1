import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { ingestApp } from "../helpers/context.js";
import { eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
});
after(async () => {
  await browser.close();
  await app.close();
});

test("databases: create one and watch it become ready, use it, see its collections and counts, delete it with confirmation", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/databases");
  await page.getByTestId("databases-table").getByText("No databases yet", { exact: false }).waitFor();

  await page.getByTestId("new-database-name").fill("support_docs");
  await page.getByTestId("create-database").click();
  // Readiness is polled: the badge turns ready without a reload.
  await page.getByTestId("db-status-support_docs").getByText("ready", { exact: true }).waitFor({ timeout: 90_000 });
  const status = await app.request("GET", "/databases/status", { query: { database: "support_docs" } });
  assert.equal(field(status.body, "data.infra.ready_for_ingestion"), true);

  // "Use" puts it in the header picker.
  await page.getByTestId("db-use-support_docs").click();
  assert.equal(await page.getByTestId("database-picker").inputValue(), "support_docs");

  // Data stored elsewhere (here through the API) shows up in the counts and collections by polling.
  await ingestApp(app, "support_docs", [{ id: "n1", type: "note", title: "Note", content: { text: "A note." } }], { collection: "team_a" });
  await page.getByTestId("collections-list").getByText("team_a", { exact: true }).waitFor();
  const row = page.getByTestId("table-row").filter({ has: page.getByTestId("db-status-support_docs") });
  await row.getByTestId("count-knowledge_items").getByText("1 knowledge items", { exact: true }).waitFor();

  // A name the service refuses shows its code and message.
  await page.getByTestId("new-database-name").fill("Bad Name!");
  await page.getByTestId("create-database").click();
  const banner = page.getByTestId("error-banner").first();
  await banner.waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "INVALID_INPUT");

  await page.getByTestId("db-delete-support_docs").click();
  await page.getByTestId("db-delete-support_docs-confirm").click();
  await page.getByTestId("db-status-support_docs").waitFor({ state: "detached", timeout: 90_000 });
  await eventually(async () => {
    const list = await app.request("GET", "/databases");
    return !field<Array<{ database: string }>>(list.body, "data.databases").some((d) => d.database === "support_docs");
  }, 60_000);
  assert.equal(await page.getByTestId("database-picker").inputValue(), "", "the deleted database is no longer chosen");
});
