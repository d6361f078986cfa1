import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, eventually, startTestApp, type TestApp } from "../helpers/harness.js";
import { FAST_RETRIES } from "../helpers/webhook-fixtures.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

let browser: Browser;
let app: TestApp;
let receiver: Receiver;
/** The receiver answers 500 while this is true: a receiver that is failing. */
let failing = false;
before(async () => {
  browser = await launchBrowser();
  receiver = await startReceiver({ answer: () => (failing ? 500 : 200) });
  // Private targets allowed (the receiver is on 127.0.0.1), fast retries, two attempts per round.
  app = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "2" });
  await createReadyDatabase(app, "docs");
});
after(async () => {
  await browser.close();
  await app.close();
  await receiver.close();
});

const text = async (page: Page, testId: string): Promise<string> => ((await page.getByTestId(testId).first().textContent()) ?? "").trim();

async function waitText(page: Page, testId: string, expected: RegExp, timeoutMs = 30_000): Promise<string> {
  return eventually(
    async () => {
      const value = await text(page, testId);
      return expected.test(value) ? value : null;
    },
    timeoutMs,
    100,
  );
}

test("webhooks: register with a generated secret, send a test, see a failing delivery's attempts and error, retry it to delivered; rotate, disable, unregister", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/webhooks");
  await waitText(page, "webhook-state", /^No webhook registered/);

  // A target the service refuses even with private URLs allowed: its code and message.
  await page.getByTestId("webhook-url-input").fill("http://169.254.169.254/latest");
  await page.getByTestId("webhook-register").click();
  const refused = page.getByTestId("webhook-error");
  await refused.waitFor();
  assert.equal(await refused.getByTestId("error-code").textContent(), "INVALID_INPUT");

  await page.getByTestId("webhook-url-input").fill(receiver.url);
  await page.getByTestId("webhook-generate-secret").check();
  await page.getByTestId("webhook-register").click();
  await waitText(page, "webhook-url", new RegExp(`^${receiver.url}$`));
  assert.match(await text(page, "webhook-state"), /indexing\.status_changed.*, signed\.$/);
  const secret = ((await page.locator('[data-testid="webhook-secret-value"] code').textContent()) ?? "").trim();
  assert.ok(secret.length >= 16, `the generated secret is shown once: ${secret}`);
  // The receiver now checks signatures with the secret the page showed.
  receiver.options = { ...receiver.options, secret };

  await page.getByTestId("webhook-test").click();
  assert.match(await waitText(page, "webhook-test-result", /^Delivered/), /^Delivered \(HTTP 200\)/);
  const probe = receiver.requests.at(-1);
  assert.equal(probe?.event, "webhook.test");
  assert.equal(probe?.verified, true, "signed with the secret shown on the page");

  // An item finishes indexing while the receiver fails: both attempts of the round fail.
  failing = true;
  await ingestApp(app, "docs", [{ id: "hooked-doc", type: "document", title: "Hooked", content: { text: "A document whose indexing is announced" } }]);
  const row = page.locator('[data-testid="delivery-row"]', { hasText: "hooked-doc" });
  await row.waitFor();
  await eventually(async () => (await row.getAttribute("data-status")) === "failed", 30_000, 100);
  assert.equal(((await row.getByTestId("delivery-attempts").textContent()) ?? "").trim(), "2");
  assert.match((await row.getByTestId("delivery-error").textContent()) ?? "", /^NON_2XX_RESPONSE .+/);
  assert.match((await row.textContent()) ?? "", /HTTP 500/);
  const deliveryId = (await row.getAttribute("data-delivery-id")) ?? "";

  // The receiver is fixed; a retry delivers it (a third attempt), verified by the receiver.
  failing = false;
  await row.getByTestId("delivery-retry").click();
  assert.match(await waitText(page, "delivery-note", /queued|retr/i), new RegExp(`^${deliveryId}: `));
  await eventually(async () => (await row.getAttribute("data-status")) === "completed", 30_000, 100);
  assert.equal(((await row.getByTestId("delivery-attempts").textContent()) ?? "").trim(), "3");
  assert.equal(await row.getByTestId("delivery-error").count(), 0);
  const accepted = receiver.accepted.get(deliveryId);
  assert.equal(accepted?.verified, true);
  assert.equal(accepted?.json.item_id, "hooked-doc");

  // The status filter lists only the failed ones: none now.
  await page.getByTestId("deliveries-status").selectOption("failed");
  await page.locator('[data-testid="deliveries-table"] td.empty').waitFor();
  await page.getByTestId("deliveries-status").selectOption("");
  await row.waitFor();

  await page.getByTestId("webhook-secret-rotate").click();
  await eventually(async () => {
    const shown = ((await page.locator('[data-testid="webhook-secret-value"] code').textContent()) ?? "").trim();
    return shown !== "" && shown !== secret;
  });
  await page.getByTestId("webhook-secret-disable").click();
  await page.getByTestId("webhook-secret-disable-confirm").click();
  await waitText(page, "webhook-signing-state", /^Deliveries are not signed/);
  assert.match(await text(page, "webhook-state"), /, unsigned\.$/);

  await page.getByTestId("webhook-delete").click();
  await page.getByTestId("webhook-delete-confirm").click();
  await waitText(page, "webhook-state", /^No webhook registered/);
  const registration = await app.request("GET", "/webhooks/indexing");
  assert.equal(registration.body.registered, false);
  assert.deepEqual(
    problems.filter((p) => !p.includes("status of 400")),
    [],
  );
});
