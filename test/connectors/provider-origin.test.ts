import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { startRecordingListener, type RecordingListener } from "../helpers/recording-listener.js";
import type { FakeHttpServer, FakeRequest } from "../helpers/fake-providers/fake-http.js";
import { FakeGmail } from "../helpers/fake-providers/gmail.js";
import { FakeLinear } from "../helpers/fake-providers/linear.js";
import { FakeNotion } from "../helpers/fake-providers/notion.js";
import { connector, expectStatus, GITHUB_TOKEN, SECRET_KEY, SLACK_TOKEN, startConnectorWorld, syncNow } from "./connector-fixtures.js";

// Every request a connector sends carries the organization's credentials, so it goes to the
// provider's configured API and nowhere else, whatever URL the provider's answer names: GitHub's
// next-page Link header, or (the other providers page with opaque cursors) a redirect.

async function stray(tt: TestContext): Promise<RecordingListener> {
  const listener = await startRecordingListener();
  tt.after(() => listener.close());
  return listener;
}

/** The fake answers requests matching `when` with a 307 to `location` instead. */
function redirect(http: FakeHttpServer, when: (req: FakeRequest) => boolean, location: string): void {
  http.rewrite = (req, res) => (when(req) ? { status: 307, body: {}, headers: { location } } : res);
}

function refusedAsProviderError(res: HttpResult, what: string): void {
  assert.equal(res.status, 502, `${what}: ${res.text}`);
  assert.equal(field(res.body, "error.code"), "PROVIDER_ERROR", what);
  assert.match(String(field(res.body, "error.message")), /outside its configured API/, what);
}

const create = async (t: TestApp, body: Record<string, unknown>): Promise<string> =>
  String(expectStatus(await t.request("POST", "/connectors", { body: { database: "db", ...body } }), 201, "create").connector_id);

test("GitHub: a next-page Link on another origin is refused, in discover and in a sync", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const elsewhere = await stray(tt);
  const { t, github } = w;
  github.addRepo("acme/app");
  github.openIssue("acme/app", { title: "Crash on login", body: "Stack trace attached", user: "ada" });
  const id = await create(t, { provider: "github", credentials: { access_token: GITHUB_TOKEN } });
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "acme/app" }] } }), 200, "configure");

  github.http.rewrite = (req, res) => ({ ...res, headers: { ...res.headers, link: `<${elsewhere.origin}${req.url.pathname}?page=2>; rel="next"` } });
  refusedAsProviderError(await t.request("GET", `/connectors/${id}/discover`), "discover");
  const failed = await syncNow(t, id);
  assert.equal(failed.last_error_code, "PROVIDER_ERROR");
  assert.match(String(failed.last_error), /next-page link points outside its configured API/);
  assert.deepEqual(elsewhere.requests, [], "nothing reached the other origin");

  // A redirect on the configured API is followed (GitHub moves renamed repositories so).
  github.http.rewrite = (req, res) =>
    req.url.pathname === "/repos/acme/old-name" ? { status: 301, body: {}, headers: { location: `${github.url}/repos/acme/app` } } : res;
  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "acme/old-name" }] } }),
    200,
    "configure via a redirect",
  );
});

test("Slack: a redirect to another origin, or off the API's path, is not followed", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const elsewhere = await stray(tt);
  const { t, slack } = w;
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const id = await create(t, { provider: "slack", credentials: { access_token: SLACK_TOKEN } });
  const list = (req: FakeRequest): boolean => req.url.pathname === "/api/conversations.list";
  for (const location of [`${elsewhere.origin}/api/conversations.list`, `${slack.http.origin}/elsewhere/conversations.list`]) {
    redirect(slack.http, list, location);
    refusedAsProviderError(await t.request("GET", `/connectors/${id}/discover`), location);
  }
  assert.deepEqual(elsewhere.requests, []);
  assert.equal(slack.http.count("/elsewhere"), 0);
  // Inside the API a redirect is followed, the form body kept (307).
  redirect(slack.http, (req) => list(req) && !req.url.search, `${slack.url}/conversations.list?moved=1`);
  const page = expectStatus(await t.request("GET", `/connectors/${id}/discover`), 200, "discover via a redirect");
  assert.ok(JSON.stringify(page.resources).includes("C0GENERAL"));
});

test("Linear: a redirect to another origin is not followed", async (tt) => {
  const linear = await FakeLinear.start({ token: "lin_api_origin_token", organization: "Acme" });
  tt.after(() => linear.close());
  const elsewhere = await stray(tt);
  const t = await startTestApp({ CONNECTOR_LINEAR_API_URL: linear.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");
  const id = await create(t, { provider: "linear", credentials: { api_token: "lin_api_origin_token" } });
  redirect(linear.http, () => true, `${elsewhere.origin}/graphql`);
  refusedAsProviderError(await t.request("GET", `/connectors/${id}/discover`), "discover");
  assert.deepEqual(elsewhere.requests, []);
});

test("Notion: a redirect to another origin is not followed", async (tt) => {
  const notion = await FakeNotion.start({ token: "ntn_origin_token", workspace: "Acme Wiki" });
  tt.after(() => notion.close());
  const elsewhere = await stray(tt);
  const t = await startTestApp({ CONNECTOR_NOTION_API_URL: notion.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");
  const id = await create(t, { provider: "notion", credentials: { api_token: "ntn_origin_token" } });
  redirect(notion.http, (req) => req.url.pathname === "/v1/search", `${elsewhere.origin}/v1/search`);
  refusedAsProviderError(await t.request("GET", `/connectors/${id}/discover`), "discover");
  assert.deepEqual(elsewhere.requests, []);
});

test("Gmail: neither the API nor the token refresh (the grant is in its body) follows a redirect elsewhere", async (tt) => {
  const gmail = await FakeGmail.start({ refreshToken: "1//origin-refresh" });
  tt.after(() => gmail.close());
  const elsewhere = await stray(tt);
  const t = await startTestApp({ CONNECTOR_GMAIL_API_URL: gmail.url, CONNECTOR_GOOGLE_TOKEN_URL: gmail.tokenUrl, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");
  const credentials = { client_id: "fake-client.apps.googleusercontent.com", client_secret: "fake-secret", refresh_token: "1//origin-refresh" };

  // The token endpoint is a URL of its own: another path on the same origin is outside it too.
  for (const location of [`${elsewhere.origin}/token`, `${gmail.url}/gmail/v1/token`]) {
    redirect(gmail.http, (req) => req.url.pathname === "/token", location);
    refusedAsProviderError(await t.request("POST", "/connectors", { body: { provider: "gmail", database: "db", credentials } }), location);
  }
  gmail.http.rewrite = null;
  const id = await create(t, { provider: "gmail", credentials });
  redirect(gmail.http, (req) => req.url.pathname.endsWith("/labels"), `${elsewhere.origin}/gmail/v1/users/me/labels`);
  refusedAsProviderError(await t.request("GET", `/connectors/${id}/discover`), "discover");
  assert.deepEqual(elsewhere.requests, [], "neither the refresh grant nor the access token left the configured APIs");
  assert.equal((await connector(t, id)).needs_reauth, false);
});
