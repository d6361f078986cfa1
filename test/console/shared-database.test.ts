import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "kb");
  await ingestApp(app, "kb", [{ id: "n1", type: "note", title: "Build notes", content: { text: "How the build works." } }]);
  const graph = await app.request("POST", "/byog/databases", { body: { database: "social" } });
  assert.equal(graph.status, 200, graph.text);
});
after(async () => {
  await browser.close();
  await app.close();
});

test("one database choice for the whole console: the header's picker is the Cypher console's too, and it survives a reload", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/items");
  await chooseScope(page, "kb");
  await page.getByTestId("item-link").getByText("Build notes").waitFor();

  // The Cypher console has no picker of its own: it runs in the header's database.
  await page.getByTestId("nav-cypher").click();
  await page.getByTestId("screen-cypher").waitFor();
  assert.equal(await page.locator('[data-testid="graph-area-picker"] select').count(), 0);
  assert.match((await page.getByTestId("cypher-database").textContent()) ?? "", /\bkb\b/);
  await page.getByTestId("cypher-query").fill("CREATE (:Team {name: 'core'})");
  await page.getByTestId("cypher-run").click();
  await page.getByTestId("cypher-no-rows").waitFor();
  const inKb = await app.request("POST", "/byog/query", { body: { database: "kb", collection: "main", query: "MATCH (t:Team) RETURN t.name AS name" } });
  assert.deepEqual(field(inKb.body, "data"), [{ name: "core" }]);

  // Graph databases are listed in the header too, marked; choosing one there moves the Cypher console.
  const option = page.locator('[data-testid="database-picker"] option[value="social"]');
  assert.equal(await option.textContent(), "social (graph)");
  await page.getByTestId("database-picker").selectOption("social");
  await page.locator('[data-testid="cypher-database"]', { hasText: "social" }).waitFor();
  await page.getByTestId("graph-collections").getByText("none yet").waitFor();
  // A graph database has no context collections: the header's collection picker is off.
  assert.equal(await page.getByTestId("collection-picker").isDisabled(), true);

  // The choice is the tab's: a reload keeps it.
  await page.reload();
  await page.locator('[data-testid="cypher-database"]', { hasText: "social" }).waitFor();
  assert.equal(await page.getByTestId("database-picker").inputValue(), "social");

  // Screens over knowledge and memories say why they cannot use a graph database, instead of failing.
  await page.getByTestId("nav-items").click();
  await page.getByTestId("graph-database-chosen").waitFor();
  assert.equal(await page.getByTestId("screen-items").count(), 0);
  await chooseScope(page, "kb");
  await page.getByTestId("item-link").getByText("Build notes").waitFor();
  assert.equal(await page.getByTestId("collection-picker").isDisabled(), false);
  assert.deepEqual(problems, []);
});
