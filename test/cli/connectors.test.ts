import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { SLACK_TOKEN, startConnectorWorld } from "../connectors/connector-fixtures.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { cliEnv, runCli, runJson } from "./run-cli.js";

before(async () => {
  await ensureBuiltCli();
});

interface ConnectorRecord {
  connector_id: string;
  provider: string;
  lifecycle: string;
  sync_status: string;
  documents_dispatched: number;
}

test("connectors: providers, create (credentials from a file), discover, configure, sync --wait, status, list, query --apps, delete", async (t) => {
  const w = await startConnectorWorld();
  t.after(() => w.close());
  const { t: app, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada Lovelace" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.addChannel({ id: "C0RANDOM", name: "random" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "The billing migration starts Monday" });
  slack.post("C0RANDOM", { user: "UADA0001", text: "Cake in the kitchen" });
  const dir = await mkdtemp(join(tmpdir(), "cli-connectors-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const credentials = join(dir, "slack.json");
  await writeFile(credentials, JSON.stringify({ access_token: SLACK_TOKEN }));
  const env = cliEnv({ url: app.baseUrl, key: app.key, database: "db" });

  const providers = await runJson<Array<{ provider: string }>>(t, ["connectors", "providers"], env);
  assert.ok(providers.some((p) => p.provider === "slack"));
  const slackInfo = await runJson<{ provider: string }>(t, ["connectors", "providers", "slack"], env);
  assert.equal(slackInfo.provider, "slack");

  const rejected = await runCli(t, ["connectors", "create", "--provider", "slack", "--credentials", '{"access_token":"xoxb-wrong"}'], env);
  assert.equal(rejected.code, 1);
  assert.match(rejected.err, /CREDENTIALS_REJECTED/);
  const notJson = await runCli(t, ["connectors", "create", "--provider", "slack", "--credentials", "{nope"], env);
  assert.equal(notJson.code, 2, "malformed JSON is a usage error");

  const created = await runJson<ConnectorRecord>(t, ["connectors", "create", "--provider", "slack", "--credentials", `@${credentials}`, "--name", "team"], env);
  const id = created.connector_id;
  assert.deepEqual([created.provider, created.lifecycle], ["slack", "pending_setup"]);

  const discovered = await runJson<Array<{ id: string; name: string }>>(t, ["connectors", "discover", id], env);
  assert.deepEqual(discovered.map((r) => r.id).sort(), ["C0GENERAL", "C0RANDOM"]);
  const configured = await runJson<{ configured: number }>(
    t,
    ["connectors", "configure", id, "--resources", JSON.stringify([{ resource_id: "C0GENERAL", resource_type: "channel", name: "general" }])],
    env,
  );
  assert.equal(configured.configured, 1);

  const synced = await runJson<{ run_id: string; connector: ConnectorRecord }>(t, ["connectors", "sync", id, "--wait"], env);
  assert.equal(typeof synced.run_id, "string");
  assert.deepEqual([synced.connector.sync_status, synced.connector.documents_dispatched], ["idle", 1], "only the configured channel's message");

  const status = await runJson<{ connector_id: string; resources: Array<{ resource_id: string; status: string }> }>(t, ["connectors", "status", id], env);
  assert.equal(status.connector_id, id);
  assert.deepEqual(
    status.resources.map((r) => r.resource_id),
    ["C0GENERAL"],
  );
  const statusText = await runCli(t, ["connectors", "status", id], env);
  assert.match(statusText.out, new RegExp(`^${id} \\(slack\\): `));
  assert.match(statusText.out, /C0GENERAL/);

  const listed = await runJson<ConnectorRecord[]>(t, ["connectors"], env);
  assert.deepEqual(
    listed.map((c) => c.connector_id),
    [id],
  );
  const listText = await runCli(t, ["connectors", "list"], env);
  assert.match(listText.out, new RegExp(`^${id}\\tslack\\tteam\\t`, "m"));

  // Indexing of the synced message is asynchronous: poll the query until it surfaces.
  const deadline = Date.now() + 60_000;
  let found: { chunks: Array<{ chunk_content: string; app_provider: string | null }> } = { chunks: [] };
  while (Date.now() < deadline && !found.chunks.some((c) => c.chunk_content.includes("billing migration"))) {
    found = await runJson(t, ["query", "billing migration", "--apps"], env);
  }
  const hit = found.chunks.find((c) => c.chunk_content.includes("billing migration"));
  assert.equal(hit?.app_provider, "slack");

  const deleted = await runCli(t, ["connectors", "delete", id, "--json"], env);
  assert.equal(deleted.code, 0, deleted.err);
  JSON.parse(deleted.out);
  assert.deepEqual(await runJson<ConnectorRecord[]>(t, ["connectors"], env), []);
  const gone = await runCli(t, ["connectors", "status", id], env);
  assert.equal(gone.code, 1);
});
