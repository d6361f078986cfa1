import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { GUIDE_MD, PRICES_CSV } from "./fixtures.js";

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "docs");
  const res = await ingestMultipart(app, { type: "knowledge", database: "docs", document_metadata: JSON.stringify([{ id: "guide" }, { id: "prices" }]) }, [
    { name: "guide.md", content: GUIDE_MD, type: "text/markdown" },
    { name: "prices.csv", content: PRICES_CSV, type: "text/csv" },
  ]);
  assert.equal(res.status, 202, res.text);
  const rows = await waitTerminal(app, "docs", ["guide", "prices"]);
  assert.deepEqual(
    rows.map((r) => r.indexing_status),
    ["completed", "completed"],
  );
});
after(async () => {
  await browser.close();
  await app.close();
});

test("query playground: ranked chunks with scores from the uploaded file; thumbs up records feedback for that query", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");

  await page.getByTestId("query-text").fill("How do I roll back a release?");
  await page.getByTestId("query-max-results").fill("3");
  const queryResponse = page.waitForResponse((r) => r.url().endsWith("/query") && r.request().method() === "POST");
  await page.getByTestId("run-query").click();
  const sent = await queryResponse;
  assert.equal(sent.status(), 200);
  const body = sent.request().postDataJSON() as Record<string, unknown>;
  assert.equal(body.database, "docs");
  assert.equal(body.max_results, 3);
  assert.equal(body.graph_context, true);

  const chunks = page.getByTestId("result-chunk");
  await chunks.first().waitFor();
  assert.ok((await chunks.count()) <= 3, "top-k is honoured");
  // The best chunk is the guide's rollback section, with its score and source.
  const top = chunks.first();
  assert.match((await top.getByTestId("chunk-content").textContent()) ?? "", /redeploy the previous container tag/);
  assert.equal(await top.getByTestId("chunk-source").getAttribute("href"), "#/items/guide");
  const score = Number(await top.getByTestId("chunk-score").textContent());
  assert.ok(score > 0, `score shown: ${score}`);
  await page.getByTestId("result-sources").getByText("guide.md", { exact: false }).first().waitFor();
  await page.getByTestId("result-graph").waitFor();

  // The request id shown is the query's; thumbs up sends feedback for it and shows it recorded.
  const requestId = (await page.getByTestId("query-request-id").textContent()) ?? "";
  assert.equal(requestId, sent.headers()["x-request-id"]);
  const feedbackResponse = page.waitForResponse((r) => r.url().endsWith("/feedback"));
  await page.getByTestId("thumbs-up").click();
  const feedback = await feedbackResponse;
  assert.equal(feedback.status(), 201);
  const recorded = (await feedback.json()) as { data: { recorded: boolean; request_id: string; feedback_id: string } };
  assert.equal(recorded.data.recorded, true);
  assert.equal(recorded.data.request_id, requestId);
  const notice = page.getByTestId("feedback-recorded");
  await notice.waitFor();
  assert.equal(await notice.getAttribute("data-feedback-id"), recorded.data.feedback_id);
  assert.match((await notice.textContent()) ?? "", /Recorded positive feedback/);
  assert.equal((feedback.request().postDataJSON() as Record<string, unknown>).rating, "positive");
});

test("query playground: a refused query shows the service's code and message", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");
  await page.getByTestId("query-text").fill("anything");
  // Alpha weighs keyword against semantic search, between 0 and 1: the service refuses 5.
  await page.getByTestId("query-alpha").fill("5");
  await page.getByTestId("run-query").click();
  const banner = page.getByTestId("error-banner");
  await banner.waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "INVALID_INPUT");
  assert.ok(((await banner.getByTestId("error-message").textContent()) ?? "").length > 0);
});
