import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";
import { FakeNotion } from "../../src/features/connectors/notion/fake-server.js";
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
