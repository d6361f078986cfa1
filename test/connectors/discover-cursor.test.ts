import assert from "node:assert/strict";
import { test } from "node:test";
import { field } from "../helpers/harness.js";
import { expectStatus, GITHUB_TOKEN, SLACK_TOKEN, startConnectorWorld } from "./connector-fixtures.js";

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
