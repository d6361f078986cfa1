import assert from "node:assert/strict";
import { test } from "node:test";
import { field } from "../helpers/harness.js";
import { connector, expectStatus, SLACK_TOKEN, startConnectorWorld } from "./connector-fixtures.js";

const code = (body: Record<string, unknown>): unknown => field(body, "error.code");

test("connector routes: providers, bad input changes nothing, isolation, pause/resume, credentials at rest", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addChannel({ id: "C0GENERAL", name: "general" });

  const providers = expectStatus(await t.request("GET", "/connectors/providers"), 200, "providers");
  assert.deepEqual(
    (providers.providers as Array<{ provider: string; supported: boolean }>).map((p) => [p.provider, p.supported]),
    [
      ["slack", true],
      ["github", true],
      ["linear", true],
      ["notion", true],
      ["gmail", true],
    ],
  );
  const slackInfo = expectStatus(await t.request("GET", "/connectors/providers", { query: { id: "slack" } }), 200, "provider");
  assert.ok(JSON.stringify(slackInfo.credential_schema).includes("access_token"));
  assert.ok(JSON.stringify(slackInfo.credential_schema).includes("api_token"));
  assert.equal((await t.request("GET", "/connectors/providers", { query: { id: "myspace" } })).status, 404);

  const create = (body: Record<string, unknown>) =>
    t.request("POST", "/connectors", { body: { provider: "slack", database: "db", credentials: { access_token: SLACK_TOKEN }, ...body } });
  const unknown = await create({ provider: "myspace" });
  assert.equal(unknown.status, 400);
  assert.match(String(field(unknown.body, "error.message")), /unknown provider 'myspace'/);
  const wrongKeys = await create({ credentials: { token: SLACK_TOKEN } });
  assert.equal(wrongKeys.status, 422);
  assert.equal(code(wrongKeys.body), "VALIDATION_ERROR");
  const rejected = await create({ credentials: { access_token: "xoxb-wrong" } });
  assert.equal(rejected.status, 422);
  assert.equal(code(rejected.body), "CREDENTIALS_REJECTED");
  assert.equal((await create({ sync_interval_seconds: 60 })).status, 400);
  assert.equal((await create({ sync_interval_seconds: 604_801 })).status, 400);
  assert.equal((await create({ custom_instructions: "x".repeat(4001) })).status, 400);
  assert.equal((await create({ database: "nope" })).status, 404);
  assert.deepEqual(expectStatus(await t.request("GET", "/connectors"), 200, "list").connectors, [], "no failed create stored anything");

  const c = expectStatus(await create({ custom_instructions: "é".repeat(4000), sync_interval_seconds: 0 }), 201, "create");
  const id = String(c.connector_id);
  assert.equal(c.sync_interval_seconds, 3600, "0 selects the provider default");
  const before = await connector(t, id);

  // PATCH: out-of-range values are 400 and change nothing; the answer carries the bounds.
  for (const body of [
    { sync_interval_seconds: 299 },
    { custom_instructions: "y".repeat(4001) },
    { sync_interval_seconds: 600, custom_instructions: "z".repeat(4001) },
  ]) {
    assert.equal((await t.request("PATCH", `/connectors/${id}`, { body })).status, 400, JSON.stringify(body).slice(0, 60));
  }
  assert.equal((await t.request("PATCH", `/connectors/${id}`, { body: { credentials: { password: "x" } } })).status, 422);
  assert.deepEqual(await connector(t, id), before, "nothing changed");
  const patched = expectStatus(await t.request("PATCH", `/connectors/${id}`, { body: { sync_interval_seconds: 900, custom_instructions: "" } }), 200, "patch");
  assert.equal(patched.sync_interval_seconds, 900);
  assert.equal(patched.min_sync_interval_seconds, 300);
  assert.equal(patched.max_sync_interval_seconds, 604_800);
  assert.equal(patched.custom_instructions_updated, true);

  // An unknown resource is refused and nothing is configured.
  const bad = await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }, { resource_id: "C0MISSING" }] } });
  assert.equal(bad.status, 400);
  assert.match(String(field(bad.body, "error.message")), /C0MISSING/);
  assert.deepEqual(expectStatus(await t.request("GET", `/connectors/${id}/resources`), 200, "resources").resources, []);
  assert.equal((await t.request("POST", `/connectors/${id}/resources`, { body: { resource_id: "C0MISSING", resource_type: "channel" } })).status, 400);
  const added = expectStatus(
    await t.request("POST", `/connectors/${id}/resources`, { body: { resource_id: "C0GENERAL", resource_type: "channel" } }),
    201,
    "add resource",
  );
  assert.equal(added.provider_cursor, "");
  const delMissing = await t.request("DELETE", `/connectors/${id}/resources/C0NOPE`);
  assert.equal(delMissing.status, 404);
  assert.equal(code(delMissing.body), "CONNECTOR_RESOURCE_NOT_FOUND");

  // Another organization sees nothing and changes nothing.
  const stranger = await t.newOrgKey();
  for (const [method, path] of [
    ["GET", `/connectors/${id}`],
    ["PATCH", `/connectors/${id}`],
    ["DELETE", `/connectors/${id}`],
    ["POST", `/connectors/${id}/sync`],
    ["GET", `/connectors/${id}/discover`],
    ["GET", `/connectors/${id}/status`],
    ["POST", `/connectors/${id}/pause`],
    ["POST", `/connectors/${id}/resume`],
    ["POST", `/connectors/${id}/configure`],
    ["GET", `/connectors/${id}/resources`],
    ["POST", `/connectors/${id}/resources`],
    ["DELETE", `/connectors/${id}/resources/C0GENERAL`],
  ] as const) {
    const bodies: Record<string, unknown> = {
      [`PATCH /connectors/${id}`]: { sync_interval_seconds: 600 },
      [`POST /connectors/${id}/configure`]: { resources: [{ resource_id: "C0GENERAL" }] },
      [`POST /connectors/${id}/resources`]: { resource_id: "C0GENERAL", resource_type: "channel" },
    };
    const body = bodies[`${method} ${path}`];
    const res = await t.request(method, path, { key: stranger.key, ...(body !== undefined ? { body } : {}) });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(code(res.body), "CONNECTOR_NOT_FOUND");
  }
  assert.deepEqual(expectStatus(await t.request("GET", "/connectors", { key: stranger.key }), 200, "list").connectors, []);
  assert.equal((await connector(t, id)).sync_interval_seconds, 900);

  // Pause and resume.
  const paused = expectStatus(await t.request("POST", `/connectors/${id}/pause`), 200, "pause");
  assert.equal(paused.paused, true);
  assert.equal((await t.request("POST", `/connectors/${id}/pause`)).status, 409);
  assert.equal((await connector(t, id)).lifecycle, "paused");
  assert.equal((await t.request("POST", `/connectors/${id}/sync`)).status, 409, "no sync while paused");
  assert.equal(expectStatus(await t.request("GET", `/connectors/${id}/status`), 200, "status").status, "paused");
  assert.deepEqual(expectStatus(await t.request("POST", `/connectors/${id}/resume`), 200, "resume"), { connector_id: id, paused: false });
  assert.equal((await t.request("POST", `/connectors/${id}/resume`)).status, 409);

  // Credentials at rest are sealed under the master key and never in a response.
  const row = await t.app.store.db.selectFrom("connectors").select("credentials").where("id", "=", id).executeTakeFirstOrThrow();
  assert.equal(row.credentials.includes(SLACK_TOKEN), false);
  assert.ok(t.app.secrets.connectors.isCurrent(row.credentials), row.credentials.slice(0, 16));
  const opened = t.app.secrets.connectors.open(row.credentials);
  assert.deepEqual(opened.ok ? JSON.parse(opened.secret) : null, { access_token: SLACK_TOKEN });
  const all = await t.request("GET", "/connectors");
  assert.equal(all.text.includes(SLACK_TOKEN), false);
  assert.deepEqual(expectStatus(await t.request("DELETE", `/connectors/${id}`), 200, "delete"), { connector_id: id, deleted: true });
});
