import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";

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

async function run(page: Page, query: string, params = "{}"): Promise<void> {
  await page.getByTestId("cypher-query").fill(query);
  await page.getByTestId("cypher-params").fill(params);
  await page.getByTestId("cypher-run").click();
}

test("Cypher console: create a graph database, write with params, read nodes and a relationship back as a table and as a graph", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/cypher");
  await page.getByTestId("screen-cypher").waitFor();

  await page.getByTestId("graph-database-name").fill("social");
  await page.getByTestId("graph-database-create").click();
  // The new graph database becomes the console's chosen one: the header's picker lists and shows it.
  await page.locator('[data-testid="database-picker"] option[value="social"]').waitFor({ state: "attached" });
  assert.equal(await page.getByTestId("database-picker").inputValue(), "social");
  assert.match((await page.getByTestId("cypher-database").textContent()) ?? "", /social/);
  await page.getByTestId("cypher-collection").fill("people");

  await run(page, "CREATE (a:Person {name: $a})-[:KNOWS {since: 2020}]->(b:Person {name: $b})", '{"a": "Ada", "b": "Grace"}');
  await page.getByTestId("cypher-no-rows").waitFor();
  assert.match((await page.getByTestId("cypher-summary").textContent()) ?? "", /^0 rows in \d+ ms$/);
  // A collection is made by its first write: the list shows it after the run.
  await page.locator('[data-testid="graph-collection"]', { hasText: "people" }).waitFor();

  // The write is in the service, not only on the page.
  const check = await app.request("POST", "/byog/query", {
    body: { database: "social", collection: "people", query: "MATCH (p:Person) RETURN p.name AS name ORDER BY name" },
  });
  assert.deepEqual(field(check.body, "data"), [{ name: "Ada" }, { name: "Grace" }]);

  await run(page, "MATCH (a:Person)-[r:KNOWS]->(b:Person) RETURN a, r, b, a.name AS from_name");
  await page.getByTestId("cypher-table").waitFor();
  const headers = await page.locator('[data-testid="cypher-table"] th').allTextContents();
  assert.deepEqual(headers, ["a", "r", "b", "from_name"]);
  const rows = page.getByTestId("cypher-row");
  assert.equal(await rows.count(), 1);
  const cells = await rows.first().locator("td").allTextContents();
  assert.match(cells[0] ?? "", /"name":"Ada"/);
  assert.match(cells[0] ?? "", /"labels":\["Person"\]/);
  assert.match(cells[1] ?? "", /"relation":"KNOWS"/);
  assert.match(cells[1] ?? "", /"since":2020/);
  assert.equal(cells[3], "Ada");

  // The same answer drawn: two Person nodes and the KNOWS relationship between them.
  await page.getByTestId("cypher-graph").waitFor();
  const nodes = await page.getByTestId("graph-node").allTextContents();
  assert.deepEqual(nodes.map((n) => n.replace(/Person$/, "")).sort(), ["Ada", "Grace"]);
  const kinds = await Promise.all((await page.getByTestId("graph-node").all()).map((row) => row.getAttribute("data-kind")));
  assert.deepEqual(kinds, ["Person", "Person"]);
  const edges = page.getByTestId("graph-edge");
  assert.equal(await edges.count(), 1);
  assert.equal(await edges.first().getAttribute("data-label"), "KNOWS");
  assert.match((await edges.first().textContent()) ?? "", /^Ada KNOWS Grace$/);
  assert.equal(Number(await page.getByTestId("graph-canvas").getAttribute("data-node-count")), 2);

  // Scalars only: a table and no graph.
  await run(page, "MATCH (p:Person) RETURN p.name AS name, count(*) AS n ORDER BY name");
  await page.locator('[data-testid="cypher-summary"]', { hasText: "2 rows" }).waitFor();
  assert.equal(await page.getByTestId("cypher-graph").count(), 0);
  assert.deepEqual(await page.locator('[data-testid="cypher-row"] td:first-child').allTextContents(), ["Ada", "Grace"]);

  // Dropping the collection (two clicks) removes the graph from the service and the list.
  await page.getByTestId("drop-collection-people").click();
  await page.getByTestId("drop-collection-people-confirm").click();
  await page.getByTestId("graph-collection").waitFor({ state: "detached" });
  const left = await app.request("GET", "/byog/collections", { query: { database: "social" } });
  assert.deepEqual(field(left.body, "collections"), []);
  assert.deepEqual(problems, []);
});

test("Cypher console: a syntax error shows the service's code and message; bad params JSON is refused before sending", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/cypher");
  await page.getByTestId("graph-database-name").fill("errors");
  await page.getByTestId("graph-database-create").click();
  await page.locator('[data-testid="database-picker"] option[value="errors"]').waitFor({ state: "attached" });

  await run(page, "MATCH (n RETURN n");
  const banner = page.getByTestId("cypher-error");
  await banner.waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "INVALID_INPUT");
  assert.match((await banner.getByTestId("error-message").textContent()) ?? "", /^SyntaxError\/\w+: .+\(line 1, column \d+\)$/);

  await run(page, "RETURN $x AS x", "{not json");
  await page.locator('[data-testid="cypher-error"] [data-testid="error-message"]', { hasText: "params are not valid JSON" }).waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "CLIENT_ERROR");

  // A procedure call is refused by the service before running.
  await run(page, "CALL db.labels()");
  await page.locator('[data-testid="cypher-error"] [data-testid="error-message"]', { hasText: "SyntaxError" }).waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "INVALID_INPUT");

  // A good query after an error clears it and answers.
  await run(page, "RETURN $x AS x", '{"x": 41}');
  await page.getByTestId("cypher-table").waitFor();
  assert.equal(await page.getByTestId("cypher-error").count(), 0);
  assert.deepEqual(await page.locator('[data-testid="cypher-row"] td').allTextContents(), ["41"]);
});
