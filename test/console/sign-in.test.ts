import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser, newConsolePage, pageStorage } from "../helpers/browser.js";
import { startTestApp, type TestApp } from "../helpers/harness.js";

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

test("sign in: a wrong key shows 401 UNAUTHORIZED with the service's message, the right key opens the console; sign out forgets it", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await page.goto(`${app.baseUrl}/console/`);
  // The placeholder shows how the service's keys begin (csk_), not some other product's prefix.
  const placeholder = (await page.getByTestId("api-key-input").getAttribute("placeholder")) ?? "";
  assert.match(placeholder, /^csk_/);
  assert.ok(app.key.startsWith(placeholder.replace(/[….]+$/, "")), `${app.key.slice(0, 4)}… begins like the placeholder ${placeholder}`);

  await page.getByTestId("api-key-input").fill("csk_not_a_real_key_at_all");
  await page.getByTestId("sign-in-button").click();
  const banner = page.getByTestId("error-banner");
  await banner.waitFor();
  assert.equal(await banner.getByTestId("error-code").textContent(), "UNAUTHORIZED");
  assert.match((await banner.getByTestId("error-message").textContent()) ?? "", /Invalid, revoked or expired API key/);

  await page.getByTestId("api-key-input").fill(app.key);
  await page.getByTestId("sign-in-button").click();
  await page.getByTestId("nav").waitFor();
  await page.getByTestId("screen-databases").waitFor();
  assert.equal(await page.getByTestId("sign-in").count(), 0);

  // The key lives in this tab's sessionStorage only, never in localStorage or a cookie.
  const stored = await pageStorage(page);
  assert.equal(stored.session["context-store.api-key"], app.key);
  assert.equal(stored.localCount, 0);
  assert.deepEqual(await context.cookies(), []);

  // A reload keeps the tab signed in.
  await page.reload();
  await page.getByTestId("nav").waitFor();

  await page.getByTestId("sign-out").click();
  await page.getByTestId("sign-in").waitFor();
  assert.equal((await pageStorage(page)).session["context-store.api-key"], undefined);
  // Only the deliberate 401 of the wrong key was logged by the browser.
  assert.deepEqual(
    problems.filter((p) => !p.includes("401")),
    [],
  );
});
