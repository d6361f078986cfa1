import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { statuses } from "../helpers/ingest.js";
import { makePdf } from "../helpers/make-files.js";
import { GUIDE_MD, PRICES_CSV } from "./fixtures.js";

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "uploads");
});
after(async () => {
  await browser.close();
  await app.close();
});

/** The upload table's row for `name`. */
const rowOf = (page: Page, name: string): Locator =>
  page.getByTestId("table-row").filter({ has: page.getByTestId("upload-name").getByText(name, { exact: true }) });

async function openUpload(page: Page): Promise<void> {
  await openConsole(page, app.baseUrl, app.key, "#/upload");
  await chooseScope(page, "uploads");
  await page.getByTestId("dropzone").waitFor();
}

test("files: a Markdown and a CSV file upload with per-file progress, then both are indexed to completed", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openUpload(page);

  await page.getByTestId("file-input").setInputFiles([
    { name: "guide.md", mimeType: "text/markdown", buffer: Buffer.from(GUIDE_MD) },
    { name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(PRICES_CSV) },
  ]);
  for (const name of ["guide.md", "prices.csv"]) {
    const row = rowOf(page, name);
    await row.waitFor();
    // The upload finished at 100%, then the live status reached completed without a reload.
    await row.getByTestId("upload-progress").and(page.locator('[data-progress="100"]')).waitFor();
    await row.getByTestId("upload-status").getByText("completed", { exact: true }).waitFor({ timeout: 90_000 });
    assert.equal(await row.getByTestId("upload-error-code").count(), 0);
  }

  // What the page shows is what the service says.
  const ids = await page.locator("[data-testid=table-row] a.mono").allTextContents();
  assert.equal(ids.length, 2);
  const rows = await statuses(app, "uploads", ids);
  assert.deepEqual(
    rows.map((r) => r.indexing_status),
    ["completed", "completed"],
  );
});

test("files: a corrupt PDF ends errored, showing the service's error code and message", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openUpload(page);

  const pdf = await makePdf([["Truncated document"]]);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf.slice(0, Math.floor(pdf.length / 3))) }]);
  const row = rowOf(page, "broken.pdf");
  await row.getByTestId("upload-status").getByText("errored", { exact: true }).waitFor({ timeout: 90_000 });
  assert.equal(await row.getByTestId("upload-error-code").textContent(), "PROCESSING_FAILED");
  const message = (await row.getByTestId("upload-error-message").textContent()) ?? "";
  assert.ok(message.length > 0, "the service's message is shown");

  // A file named as a supported type whose bytes are not (a PNG called .txt) passes the console's
  // name check; the service refuses it at once, also with its code.
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "logo.txt", mimeType: "text/plain", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]) }]);
  const png = rowOf(page, "logo.txt");
  await png.getByTestId("upload-status").getByText("errored", { exact: true }).waitFor();
  assert.equal(await png.getByTestId("upload-error-code").textContent(), "INVALID_FILE_FORMAT");
});

test("files: unsupported types (.html, .png) are refused before sending, naming the accepted extensions; the rest of the batch is sent", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openUpload(page);
  const ingests: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/context/ingest")) ingests.push(request.method());
  });
  assert.equal(await page.getByTestId("file-input").getAttribute("accept"), ".pdf,.docx,.md,.markdown,.mdx,.csv,.txt,.text");

  await page.getByTestId("file-input").setInputFiles([
    { name: "page.html", mimeType: "text/html", buffer: Buffer.from("<html><body><p>Hello</p></body></html>") },
    { name: "logo.PNG", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
    { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Notes\n\nKept.\n") },
  ]);
  const refused = page.getByTestId("upload-refused");
  await refused.waitFor();
  const lines = await refused.locator("p").allTextContents();
  assert.deepEqual(lines, [
    "page.html: not sent, .html files are not supported. Accepted: .pdf, .docx, .md, .markdown, .mdx, .csv, .txt, .text.",
    "logo.PNG: not sent, .png files are not supported. Accepted: .pdf, .docx, .md, .markdown, .mdx, .csv, .txt, .text.",
  ]);
  // Only the Markdown file got a row and a request: the refused ones never reached the service.
  await rowOf(page, "notes.md").getByTestId("upload-status").getByText("completed", { exact: true }).waitFor({ timeout: 90_000 });
  assert.equal(await page.getByTestId("table-row").count(), 1);
  assert.deepEqual(ingests, ["POST"]);

  // A batch of only unsupported files sends nothing; a later good batch clears the refusal.
  await page.getByTestId("file-input").setInputFiles([{ name: "export.json", mimeType: "application/json", buffer: Buffer.from("{}") }]);
  await refused.getByText(/^export\.json: not sent, \.json files are not supported/).waitFor();
  assert.deepEqual(ingests, ["POST"]);
  await page.getByTestId("file-input").setInputFiles([{ name: "more.txt", mimeType: "text/plain", buffer: Buffer.from("More notes.") }]);
  await rowOf(page, "more.txt").waitFor();
  assert.equal(await refused.count(), 0);
  assert.deepEqual(problems, []);
});

test("records: app items and memories sent as JSON Lines are indexed; malformed JSON is refused in the page", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openUpload(page);
  await page.getByTestId("tab-records").click();

  await page.getByTestId("records-text").fill("{ not json");
  await page.getByTestId("records-submit").click();
  const refusal = page.getByTestId("records-error");
  await refusal.waitFor();
  assert.match((await refusal.getByTestId("error-message").textContent()) ?? "", /not valid JSON/);

  const items = [
    { id: "ticket-7", type: "ticket", title: "Printer jams on tray 2", content: { text: "The office printer jams on tray 2 every morning." } },
    { id: "ticket-8", type: "ticket", title: "VPN drops", content: { text: "The VPN drops every hour on macOS." } },
  ];
  await page.getByTestId("records-text").fill(items.map((i) => JSON.stringify(i)).join("\n"));
  await page.getByTestId("records-submit").click();
  for (const title of ["Printer jams on tray 2", "VPN drops"]) {
    await rowOf(page, title).getByTestId("upload-status").getByText("completed", { exact: true }).waitFor({ timeout: 90_000 });
  }
  assert.equal(await refusal.count(), 0, "the earlier refusal is cleared");

  await page.getByTestId("records-kind").selectOption("memories");
  await page.getByTestId("records-text").fill(JSON.stringify([{ id: "pref-tea", title: "Tea", text: "Prefers green tea in the afternoon.", infer: false }]));
  await page.getByTestId("records-submit").click();
  // Memories are final at completed too (searchable from graph_creation on).
  await rowOf(page, "Tea").getByTestId("upload-status").getByText("completed", { exact: true }).waitFor({ timeout: 90_000 });
  const [memory] = await statuses(app, "uploads", ["pref-tea"]);
  assert.equal(memory?.indexing_status, "completed");
});
