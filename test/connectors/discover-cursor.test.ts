import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { startRecordingListener, type RecordingListener } from "../helpers/recording-listener.js";
import { FakeGithub } from "../helpers/fake-providers/github.js";
import { FakeNotion } from "../helpers/fake-providers/notion.js";
import { expectStatus, GITHUB_TOKEN, SECRET_KEY, SLACK_TOKEN, startConnectorWorld } from "./connector-fixtures.js";

// Found by the randomized input suite: a discover cursor the caller made up was answered 502
// PROVIDER_ERROR, as if the provider had failed. The cursor is the caller's input: 400.
test("a discover cursor that was not issued by the provider is 400 INVALID_INPUT, not a gateway error", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const create = async (body: Record<string, unknown>): Promise<string> =>
    String(expectStatus(await t.request("POST", "/connectors", { body: { database: "db", ...body } }), 201, "create").connector_id);
  const slackId = await create({ provider: "slack", credentials: { access_token: SLACK_TOKEN } });
  const githubId = await create({ provider: "github", credentials: { access_token: GITHUB_TOKEN } });

  for (const [id, cursor] of [
    [slackId, "r"],
    [githubId, "https://elsewhere.example/user/repos?page=2"],
  ] as const) {
    const res = await t.request("GET", `/connectors/${id}/discover`, { query: { cursor } });
    assert.equal(res.status, 400, res.text);
    assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    assert.match(String(field(res.body, "error.message")), /cursor/);
  }
  // Without a cursor the first page still answers.
  const page = expectStatus(await t.request("GET", `/connectors/${slackId}/discover`), 200, "discover");
  assert.ok(JSON.stringify(page.resources).includes("C0GENERAL"));
});

test("Notion: a start_cursor Notion refuses is 400 INVALID_INPUT too", async (tt) => {
  const notion = await FakeNotion.start({ token: "ntn_cursor_token", workspace: "Acme Wiki" });
  tt.after(() => notion.close());
  const t = await startTestApp({ CONNECTOR_NOTION_API_URL: notion.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");
  const created = await t.request("POST", "/connectors", { body: { provider: "notion", database: "db", credentials: { api_token: "ntn_cursor_token" } } });
  const id = String(expectStatus(created, 201, "create").connector_id);
  const res = await t.request("GET", `/connectors/${id}/discover`, { query: { cursor: "not-a-cursor-notion-issued" } });
  assert.equal(res.status, 400, res.text);
  assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
  assert.match(String(field(res.body, "error.message")), /cursor/);
  expectStatus(await t.request("GET", `/connectors/${id}/discover`), 200, "discover without a cursor");
});

/**
 * A fake GitHub on port P beside a listener on port 10P+d: the listener's origin starts with the
 * fake's as a string (`http://127.0.0.1:4321` and `http://127.0.0.1:43217`), as
 * `https://api.github.com:8443` starts with `https://api.github.com`.
 */
async function githubBesideStray(): Promise<{ github: FakeGithub; stray: RecordingListener }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const stray = await startRecordingListener();
    const port = Math.floor(stray.port / 10);
    if (port >= 1024) {
      const github = await FakeGithub.start({ token: GITHUB_TOKEN, login: "acme", port }).catch(() => null);
      if (github) return { github, stray };
    }
    await stray.close();
  }
  throw new Error("found no free port pair (P, 10P+d) for the fake GitHub and the stray listener");
}

// Found by the security review: the cursor was accepted when its string started with the
// configured API URL, and the request went out with the organization's GitHub token.
test("GitHub: a discover cursor on another host or port is 400 INVALID_INPUT and no request carries the token", async (tt) => {
  const { github, stray } = await githubBesideStray();
  tt.after(() => github.close());
  tt.after(() => stray.close());
  github.addRepo("acme/app");
  const t = await startTestApp({ CONNECTOR_GITHUB_API_URL: github.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");
  const created = await t.request("POST", "/connectors", { body: { provider: "github", database: "db", credentials: { access_token: GITHUB_TOKEN } } });
  const id = String(expectStatus(created, 201, "create").connector_id);
  const refused = async (app: TestApp, cursor: string): Promise<void> => {
    const res = await app.request("GET", `/connectors/${id}/discover`, { query: { cursor }, key: t.key });
    assert.equal(res.status, 400, `${cursor}: ${res.text}`);
    assert.equal(field(res.body, "error.code"), "INVALID_INPUT", cursor);
    assert.match(String(field(res.body, "error.message")), /cursor/);
  };

  const strayCursor = `${stray.origin}/user/repos?page=2`;
  assert.ok(strayCursor.startsWith(github.url), "the stray origin starts with the configured one, as a string");
  const callsBefore = github.http.log.length;
  for (const cursor of [
    strayCursor,
    // Same origin, but not the listing discover pages through (the path is normalised first).
    `${github.url}/repos/acme/app/issues?page=2`,
    `${github.url}/user/repos/../../repos/acme/app?page=2`,
    `${github.url.replace("http://", "http://user:pw@")}/user/repos?page=2`,
  ])
    await refused(t, cursor);
  assert.deepEqual(stray.requests, [], "the listener on the look-alike port got nothing");
  assert.equal(github.http.log.length, callsBefore, "no refused cursor was sent to the fake either");

  // The review's own cursors, against the default API (https://api.github.com): this second
  // process serves the same store; without the check they were sent (and failed as 502 here).
  const onGithubCom = await startTestApp({ CONNECTOR_SECRET_KEY: SECRET_KEY }, t.db);
  tt.after(() => onGithubCom.close());
  for (const cursor of ["https://api.github.com.evil.example/x", "https://api.github.com:8443/x", "https://api.github.com.evil.example/user/repos?page=2"])
    await refused(onGithubCom, cursor);

  // A cursor the connector handed out still pages.
  for (let i = 0; i < 3; i++) github.addRepo(`acme/extra-${i}`);
  const first = expectStatus(await t.request("GET", `/connectors/${id}/discover`, { query: { limit: "2" } }), 200, "first page");
  assert.equal(typeof first.next_cursor, "string");
  const second = expectStatus(await t.request("GET", `/connectors/${id}/discover`, { query: { cursor: String(first.next_cursor) } }), 200, "next page");
  assert.equal((second.resources as unknown[]).length, 2);
});
