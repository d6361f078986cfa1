import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole, pageStorage, waitForCount } from "../helpers/browser.js";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { RELEASE_NOTES_MD } from "./fixtures.js";

interface WireChunk {
  readonly chunk_uuid: string;
  readonly chunk_content: string;
  readonly source_id: string;
}

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "docs");
  const res = await ingestMultipart(app, { type: "knowledge", database: "docs", document_metadata: JSON.stringify([{ id: "notes" }]) }, [
    { name: "release-notes.md", content: RELEASE_NOTES_MD, type: "text/markdown" },
  ]);
  assert.equal(res.status, 202, res.text);
  await waitTerminal(app, "docs", ["notes"]);
  // Markup in stored text, which the page must show as text (an app item's text is kept as written).
  await ingestApp(app, "docs", [
    {
      id: "markup",
      type: "note",
      title: "Client bug",
      content: { text: "Known issue of an old client: a title such as <img src=x onerror=alert(1)> <b>bold</b> was rendered as markup." },
    },
  ]);
});
after(async () => {
  await browser.close();
  await app.close();
});

/** Runs the form's query; resolves with the chunks of the service's answer once the page shows them. */
async function runQuery(page: Page, text: string, count: number): Promise<WireChunk[]> {
  await page.getByTestId("query-text").fill(text);
  const answered = page.waitForResponse((r) => r.url().endsWith("/query") && r.request().method() === "POST");
  await page.getByTestId("run-query").click();
  const body = (await (await answered).json()) as { data: { chunks: WireChunk[] } };
  await waitForCount(page.getByTestId("result-chunk"), count);
  return body.data.chunks;
}

const heightOf = async (page: Page, selector: string): Promise<number> => (await page.locator(selector).boundingBox())?.height ?? 0;

test("query results are compact: ten results are two-line previews that open one at a time or all at once; markup stays text", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");
  const chunks = await runQuery(page, "How do I roll back a release?", 10);

  // Every result is a preview; the whole page stays short (it was 3,019 px for these ten results at this width).
  const cards = page.getByTestId("result-chunk");
  const expandedStates = async () => Promise.all((await cards.all()).map((card) => card.getAttribute("data-expanded")));
  assert.deepEqual(await expandedStates(), Array(10).fill("false"));
  const pageHeight = await page.evaluate<number>("document.documentElement.scrollHeight");
  assert.ok(pageHeight < 2000, `the page is ${pageHeight} px tall`);
  for (const card of await cards.all()) assert.ok(((await card.boundingBox())?.height ?? 0) < 90, "each result is a few lines");

  // The preview holds the whole text (copy, find in page), shown clipped; "Show more" opens one result.
  const first = cards.first();
  assert.equal((await first.getByTestId("chunk-content").textContent())?.replace(/\s+/g, " "), chunks[0]?.chunk_content.replace(/\s+/g, " "));
  const collapsed = await heightOf(page, '[data-testid="result-chunk"] >> nth=0');
  await first.getByTestId("chunk-toggle").click();
  assert.equal(await first.getAttribute("data-expanded"), "true");
  assert.ok((await heightOf(page, '[data-testid="result-chunk"] >> nth=0')) > collapsed * 1.5, "the opened result shows all of its text");
  assert.equal(await cards.nth(1).getAttribute("data-expanded"), "false", "only that one");
  assert.equal(await first.getByTestId("chunk-toggle").textContent(), "Show less");

  await page.getByTestId("result-chunks-expand-all").click();
  assert.deepEqual(await expandedStates(), Array(10).fill("true"));
  assert.ok((await page.evaluate<number>("document.documentElement.scrollHeight")) > pageHeight + 500, "opened, the results take their full height");
  await page.getByTestId("result-chunks-expand-all").click();
  assert.deepEqual(await expandedStates(), Array(10).fill("false"));

  // Markup in a chunk is text, opened or not: no element is made from it.
  const markup = await runQuery(page, "known issue old client markup", 10);
  const withMarkup = markup.findIndex((c) => c.chunk_content.includes("<img"));
  assert.ok(withMarkup >= 0, "a result holds the markup");
  const card = cards.nth(withMarkup);
  if ((await card.getByTestId("chunk-toggle").count()) > 0) await card.getByTestId("chunk-toggle").click();
  assert.match((await card.getByTestId("chunk-content").textContent()) ?? "", /<img src=x onerror=alert\(1\)> <b>bold<\/b>/);
  assert.equal(await page.locator('[data-testid="chunk-content"] img, [data-testid="chunk-content"] b').count(), 0);
  assert.deepEqual(problems, []);
});

test("a result can be copied (its text or its JSON) and the whole answer saved as a JSON file", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseUrl });
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");
  await page.getByTestId("query-max-results").fill("4");
  const chunks = await runQuery(page, "container tag", 4);
  const clipboard = () => page.evaluate<string>("navigator.clipboard.readText()");

  const second = page.getByTestId("result-chunk").nth(1);
  await second.getByTestId("copy-chunk-text").click();
  await second.locator('[data-testid="copy-chunk-text"][data-state="copied"]').waitFor();
  assert.equal(await clipboard(), chunks[1]?.chunk_content);
  await second.getByTestId("copy-chunk-json").click();
  await second.locator('[data-testid="copy-chunk-json"][data-state="copied"]').waitFor();
  assert.deepEqual(JSON.parse(await clipboard()), chunks[1]);

  const requestId = (await page.getByTestId("query-request-id").textContent()) ?? "";
  const downloading = page.waitForEvent("download");
  await page.getByTestId("export-results").click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), `query-${requestId}.json`);
  const saved = JSON.parse(await readFile(await download.path(), "utf8")) as {
    request_id: string;
    request: Record<string, unknown>;
    answer: { chunks: WireChunk[]; sources: unknown[] };
  };
  assert.equal(saved.request_id, requestId);
  assert.equal(saved.request.query, "container tag");
  assert.equal(saved.request.database, "docs");
  assert.equal(saved.request.max_results, 4);
  assert.deepEqual(saved.answer.chunks, chunks, "every result, as the service returned it");
  assert.ok(saved.answer.sources.length >= 1);
  assert.deepEqual(problems, []);
});

test("query history: this tab's queries, newest first, survive a reload; Use refills the form, Run asks again; sign-out and other tabs see none", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");
  await page.getByTestId("query-history-empty").waitFor();

  await runQuery(page, "roll back a release", 10);
  await page.getByTestId("query-mode").selectOption("thinking");
  await page.getByTestId("query-max-results").fill("3");
  await page.getByTestId("query-text").fill("billing tables");
  await page.getByTestId("run-query").click();
  await waitForCount(page.getByTestId("history-entry"), 2);
  assert.deepEqual(await page.getByTestId("history-query").allTextContents(), ["billing tables", "roll back a release"]);

  // Kept in this tab's sessionStorage (nothing in localStorage), so a reload keeps it; the form opens with the latest query.
  const stored = await pageStorage(page);
  assert.ok(stored.session["context-store.query-history"]?.includes("billing tables"));
  assert.equal(stored.localCount, 0);
  await page.reload();
  await waitForCount(page.getByTestId("history-entry"), 2);
  assert.equal(await page.getByTestId("query-text").inputValue(), "billing tables");

  // Use: the older query and its parameters back in the form, not run.
  await page.getByTestId("history-use").nth(1).click();
  assert.equal(await page.getByTestId("query-text").inputValue(), "roll back a release");
  assert.equal(await page.getByTestId("query-mode").inputValue(), "fast");
  assert.equal(await page.getByTestId("query-max-results").inputValue(), "10");

  // Run: asked again exactly as before; it moves to the top instead of repeating.
  const asked = page.waitForRequest((r) => r.url().endsWith("/query") && r.method() === "POST");
  await page.getByTestId("history-run").nth(1).click();
  const body = (await asked).postDataJSON() as Record<string, unknown>;
  assert.equal(body.query, "roll back a release");
  assert.equal(body.mode, "fast");
  await page.locator('[data-testid="history-query"] >> nth=0', { hasText: "roll back a release" }).waitFor();
  assert.deepEqual(await page.getByTestId("history-query").allTextContents(), ["roll back a release", "billing tables"]);

  // Another tab (its own session) starts with none.
  const other = await newConsolePage(browser);
  t.after(() => other.context.close());
  await openConsole(other.page, app.baseUrl, app.key, "#/query");
  await chooseScope(other.page, "docs");
  await other.page.getByTestId("query-history-empty").waitFor();

  // Signing out forgets it with the key.
  await page.getByTestId("sign-out").click();
  await page.getByTestId("sign-in").waitFor();
  assert.equal((await pageStorage(page)).session["context-store.query-history"], undefined);
  await openConsole(page, app.baseUrl, app.key, "#/query");
  await chooseScope(page, "docs");
  await page.getByTestId("query-history-empty").waitFor();
  assert.deepEqual(problems, []);
});
