import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { eventually, field } from "../helpers/harness.js";
import { connector, SLACK_TOKEN, startConnectorWorld, type ConnectorWorld } from "../connectors/connector-fixtures.js";

let browser: Browser;
let world: ConnectorWorld;
before(async () => {
  browser = await launchBrowser();
  world = await startConnectorWorld();
  const { slack } = world;
  slack.addUser({ id: "UADA0001", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addUser({ id: "UBOB0001", name: "Bob Builder", email: "bob@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  // More channels than one discover page (20), so the console pages with next_cursor.
  for (let i = 1; i <= 21; i += 1) slack.addChannel({ id: `C0TEAM${String(i).padStart(2, "0")}`, name: `team-${i}` });
  const root = slack.post("C0GENERAL", { user: "UADA0001", text: "The billing migration starts Monday" });
  slack.post("C0GENERAL", { user: "UBOB0001", text: "Which tables move first?", threadTs: root });
  slack.post("C0GENERAL", { user: "UBOB0001", text: "Lunch order is in the kitchen" });
  slack.post("C0TEAM01", { user: "UADA0001", text: "Team one standup notes" });
});
after(async () => {
  await browser.close();
  await world.close();
});

const text = async (page: Page, testId: string): Promise<string> => ((await page.getByTestId(testId).first().textContent()) ?? "").trim();

/** Waits until the element's text matches, reading the page as it polls the service. */
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

const resourceRow = (page: Page, id: string) => page.locator(`[data-testid="resource-row"][data-resource-id="${id}"]`);

test("connectors: create a Slack connector from the provider's credential schema, discover (paged), add, sync now, see items and cursors", async (t) => {
  const { t: app } = world;
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/connectors");
  await chooseScope(page, "db");
  await page.getByTestId("connector-new").click();
  await page.getByTestId("connector-provider").selectOption("slack");
  // Slack's schema accepts {access_token} or {api_token}: the form offers both and asks for one.
  await page.getByTestId("credential-access_token").waitFor();
  assert.deepEqual(await page.locator('[data-testid="connector-credential-variant"] option').allTextContents(), ["access_token", "api_token"]);
  assert.equal(await page.getByTestId("credential-access_token").getAttribute("type"), "password");
  assert.match(await text(page, "connector-setup-guide"), /channels:history/);
  assert.equal(await page.getByTestId("connector-database").inputValue(), "db");

  // A refused token: the service's code and message, nothing created.
  await page.getByTestId("credential-access_token").fill("xoxb-wrong");
  await page.getByTestId("connector-create-submit").click();
  const refused = page.getByTestId("connector-create-error");
  await refused.waitFor();
  assert.equal(await refused.getByTestId("error-code").textContent(), "CREDENTIALS_REJECTED");

  await page.getByTestId("connector-name").fill("Team Slack");
  await page.getByTestId("credential-access_token").fill(SLACK_TOKEN);
  await page.getByTestId("connector-create-submit").click();
  await page.getByTestId("screen-connector").waitFor();
  const id = decodeURIComponent(new URL(page.url()).hash.replace("#/connectors/", ""));
  assert.equal((await connector(app, id)).name, "Team Slack");
  await waitText(page, "connector-lifecycle", /^pending setup$/);

  // Discover pages through the provider's channels with next_cursor.
  await page.getByTestId("discover-run").click();
  await page.getByTestId("discovered-row").nth(19).waitFor();
  assert.equal(await page.getByTestId("discovered-row").count(), 20);
  await page.getByTestId("discover-more").click();
  await page.getByTestId("discovered-row").nth(21).waitFor();
  assert.equal(await page.getByTestId("discover-more").count(), 0, "no further page");

  // Add one channel from the list; configure another with a look-back.
  await page.locator('[data-testid="discovered-row"][data-resource-id="C0GENERAL"] [data-testid="discovered-add"]').click();
  await resourceRow(page, "C0GENERAL").waitFor();
  assert.match((await resourceRow(page, "C0GENERAL").getByTestId("resource-cursor").textContent()) ?? "", /not pulled yet/);
  await waitText(page, "connector-lifecycle", /^ingesting$/);
  await page.locator('[data-testid="discovered-row"][data-resource-id="C0TEAM01"] input[type="checkbox"]').check();
  await page.getByTestId("discover-lookback").fill("7");
  await page.getByTestId("discover-configure").click();
  await resourceRow(page, "C0TEAM01").waitFor();
  assert.match(await text(page, "discover-note"), /Configured 1 resource/);

  await page.getByTestId("connector-sync").click();
  // Adding resources makes the connector due at once, so the scheduler (each minute) may start
  // the run first; the click is then the service's 409 for a run already on, shown as such.
  const answer = page.locator('[data-testid="connector-note"], [data-testid="connector-sync-busy"]').first();
  await answer.waitFor();
  assert.match((await answer.textContent()) ?? "", /^(Sync started \(run .+\)\.|CONNECTOR_CONFLICT a sync of this connector is already queued or running)$/);
  // Polling brings the finished sync in: four messages dispatched, a Slack cursor per resource.
  await waitText(page, "connector-dispatched", /^4$/);
  await waitText(page, "connector-lifecycle", /^active$/);
  for (const resource of ["C0GENERAL", "C0TEAM01"]) {
    const cursor = ((await resourceRow(page, resource).getByTestId("resource-cursor").textContent()) ?? "").trim();
    assert.match(cursor, /^\d+\.\d{6}$/, `${resource} has a cursor`);
    assert.equal(await resourceRow(page, resource).getByTestId("resource-backfill").textContent(), "complete");
  }
  const stored = await app.request("GET", `/connectors/${id}/resources`);
  const cursors = field<Array<{ resource_id: string; provider_cursor: string }>>(stored.body, "resources");
  for (const r of cursors) {
    assert.equal(((await resourceRow(page, r.resource_id).getByTestId("resource-cursor").textContent()) ?? "").trim(), r.provider_cursor);
  }

  // The list shows the connector's state too.
  await page.goto(`${app.baseUrl}/console/#/connectors`);
  const row = page.locator('[data-testid="table-row"]', { hasText: "Team Slack" });
  await row.waitFor();
  assert.equal(await row.getByTestId("connector-lifecycle").textContent(), "active");
  assert.equal(await row.getByTestId("connector-sync-status").textContent(), "idle");
  // The browser logged only the deliberate 422 of the refused token.
  assert.deepEqual(
    problems.filter((p) => !p.includes("status of 422")),
    [],
  );
});

test("connectors: a second sync while one runs is shown as 409 CONNECTOR_CONFLICT; pause and resume; a failing sync shows its last error; remove a resource", async (t) => {
  const { t: app, slack } = world;
  const created = await app.request("POST", "/connectors", {
    body: { provider: "slack", name: "Busy Slack", database: "db", provider_account_scope: "second", credentials: { access_token: SLACK_TOKEN } },
  });
  assert.equal(created.status, 201, created.text);
  const id = String(created.body.connector_id);
  const configured = await app.request("POST", `/connectors/${id}/configure`, {
    body: { resources: [{ resource_id: "C0GENERAL" }, { resource_id: "C0TEAM02" }] },
  });
  assert.equal(configured.status, 200, configured.text);

  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, `#/connectors/${id}`);
  await page.getByTestId("screen-connector").waitFor();
  await waitText(page, "connector-lifecycle", /^ingesting$/);

  // Hold the provider's answers to keep the run going, then ask again.
  const release = slack.http.hold();
  try {
    await page.getByTestId("connector-sync").click();
    await waitText(page, "connector-lifecycle", /^syncing$/);
    await page.getByTestId("connector-sync").click();
    const busy = page.getByTestId("connector-sync-busy");
    await busy.waitFor();
    assert.match((await busy.textContent()) ?? "", /^CONNECTOR_CONFLICT a sync of this connector is already queued or running$/);
  } finally {
    release();
  }
  await waitText(page, "connector-lifecycle", /^active$/);

  await page.getByTestId("connector-pause").click();
  await waitText(page, "connector-lifecycle", /^paused$/);
  assert.equal(await text(page, "connector-pause"), "Resume");
  assert.equal((await connector(app, id)).paused, true);
  // The provider fails from here: the next sync ends with last_error, shown with the health state
  // and the message. (Resuming makes the connector due, so the scheduler may start that sync
  // before the click does; either way it fails.)
  slack.failCalls({ count: 1000 });
  try {
    await page.getByTestId("connector-pause").click();
    await waitText(page, "connector-pause", /^Pause$/);
    await page.getByTestId("connector-sync").click();
    const lastError = page.getByTestId("connector-last-error");
    await lastError.waitFor({ timeout: 30_000 });
    const record = await connector(app, id);
    assert.notEqual(record.last_error, "");
    assert.equal(await lastError.locator(".error-message").textContent(), record.last_error);
    assert.equal(record.last_error_code, "PROVIDER_ERROR");
    assert.match((await lastError.locator(".error-code").textContent()) ?? "", /^PROVIDER_ERROR: last sync (degraded|failed)$/);
  } finally {
    slack.failCalls({ count: 0 });
  }

  // Settings: an interval outside the provider's bounds is refused with its code; a valid one is saved.
  await page.getByTestId("settings-interval").fill("10");
  await page.getByTestId("settings-save").click();
  const refused = page.locator('[data-testid="connector-settings"] [data-testid="error-banner"]');
  await refused.waitFor();
  assert.equal(await refused.getByTestId("error-code").textContent(), "INVALID_INPUT");
  await page.getByTestId("settings-interval").fill("900");
  await page.getByTestId("settings-save").click();
  await page.locator('[data-testid="connector-settings"] .notice', { hasText: "Saved: sync every 900 s" }).waitFor();
  assert.equal((await connector(app, id)).sync_interval_seconds, 900);

  await page.getByTestId("resource-remove-C0TEAM02").click();
  await page.getByTestId("resource-remove-C0TEAM02-confirm").click();
  await resourceRow(page, "C0TEAM02").waitFor({ state: "detached" });
  const left = await app.request("GET", `/connectors/${id}/resources`);
  assert.deepEqual(
    field<Array<{ resource_id: string }>>(left.body, "resources").map((r) => r.resource_id),
    ["C0GENERAL"],
  );
});
