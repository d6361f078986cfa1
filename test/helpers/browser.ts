// A real headless Chromium (Debian's, or CHROMIUM_PATH) driven by playwright-core, which downloads
// no browser. One browser per test file, a fresh page (its own context: storage, cookies) per test.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { ensureConsoleBuilt } from "./console-build.js";

// Without the background-networking flags Chromium keeps dialing Google's services, which on a
// closed network floods the logs and slows every page. Playwright gives each launch its own
// temporary user-data-dir (a fresh profile), removed when the browser closes.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** How long a step waits for the page to show what it expects: generous, the machine is shared. */
const UI_TIMEOUT_MS = 30_000;

export async function launchBrowser(): Promise<Browser> {
  await ensureConsoleBuilt();
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
}

export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Page errors and console errors seen so far (a test can assert there were none). */
  readonly problems: string[];
}

/** A fresh page in its own context, failing its steps after UI_TIMEOUT_MS. */
export async function newConsolePage(browser: Browser): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  return { page, context, problems };
}

/** Opens the console at `hash` and signs in with `key`; resolves once the shell shows. */
export async function openConsole(page: Page, baseUrl: string, key: string, hash = "#/databases"): Promise<void> {
  await page.goto(`${baseUrl}/console/${hash}`);
  await page.getByTestId("api-key-input").fill(key);
  await page.getByTestId("sign-in-button").click();
  await page.getByTestId("nav").waitFor();
}

/** Chooses the database (and collection) in the header pickers. */
export async function chooseScope(page: Page, database: string, collection?: string): Promise<void> {
  await page.getByTestId("database-picker").selectOption(database);
  if (collection !== undefined) {
    await page.getByTestId("collection-picker").fill(collection);
    await page.getByTestId("collection-picker").press("Enter");
  }
}

/** Writes a PNG of the page to `dir/name.png` (default: test-results/console/), returning its path. */
export async function screenshot(page: Page, name: string, dir = resolve("test-results", "console"), fullPage = true): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** What the page keeps: the tab's sessionStorage entries and how many localStorage entries exist. */
export async function pageStorage(page: Page): Promise<{ session: Record<string, string>; localCount: number }> {
  // A string expression: the test's own tsconfig has no DOM types.
  return page.evaluate<{ session: Record<string, string>; localCount: number }>("({ session: { ...sessionStorage }, localCount: localStorage.length })");
}

/**
 * Waits until `locator` matches exactly `count` elements. Polls from the test side: the console's
 * CSP forbids eval, which page.waitForFunction with a string relies on.
 */
export async function waitForCount(locator: Locator, count: number, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = await locator.count();
  while (seen !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} elements, still ${seen} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
    seen = await locator.count();
  }
}
