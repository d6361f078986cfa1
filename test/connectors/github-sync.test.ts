import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { connector, connectorItems, expectStatus, GITHUB_TOKEN, startConnectorWorld, syncNow } from "./connector-fixtures.js";

test("github: issues, PRs and comments; two account scopes stay apart; edits, deletions, rate-limit reset, scheduler", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, github } = w;
  github.addRepo("shared/app");
  const bug = github.openIssue("shared/app", { title: "Crash on login", body: "Stack trace attached", user: "ada", labels: ["bug"] });
  const pr = github.openIssue("shared/app", { title: "Fix login crash", body: "Closes #1", user: "bob", pr: true });
  github.comment("shared/app", bug, { body: "Reproduced on Safari", user: "bob" });

  const a = String(
    expectStatus(
      await t.request("POST", "/connectors", { body: { provider: "github", database: "db", credentials: { api_token: GITHUB_TOKEN } } }),
      201,
      "create a",
    ).connector_id,
  );
  // A second connector on the same account scope is refused; with another scope (one base URL
  // serves both here, so the same objects) its items are separate ones.
  const dup = await t.request("POST", "/connectors", { body: { provider: "github", database: "db", credentials: { api_token: GITHUB_TOKEN } } });
  assert.equal(dup.status, 409);
  assert.equal((dup.body.error as { code: string }).code, "CONNECTOR_ALREADY_EXISTS");
  const b = String(
    expectStatus(
      await t.request("POST", "/connectors", {
        body: { provider: "github", database: "db", provider_account_scope: "globex", credentials: { api_token: GITHUB_TOKEN } },
      }),
      201,
      "create b",
    ).connector_id,
  );
  const discovered = expectStatus(await t.request("GET", `/connectors/${a}/discover`), 200, "discover");
  assert.equal(discovered.provider, "github");
  const repositories = discovered.resources as Array<{ id: string; name: string; resource_type: string }>;
  assert.ok(
    repositories.some((r) => r.id === "shared/app" && r.resource_type === "repository"),
    `discover lists the repositories the token sees: ${JSON.stringify(repositories)}`,
  );
  expectStatus(
    await t.request("POST", `/connectors/${a}/configure`, { body: { resources: [{ resource_id: "shared/app", resource_type: "repository" }] } }),
    200,
    "configure a",
  );
  expectStatus(await t.request("POST", `/connectors/${b}/configure`, { body: { resources: [{ resource_id: "shared/app" }] } }), 200, "configure b");
  await syncNow(t, a);
  await syncNow(t, b);
  const itemsA = await connectorItems(t, a);
  const itemsB = await connectorItems(t, b);
  assert.deepEqual(
    [...itemsA.keys()].sort(),
    ["github:acme:comment:shared/app:comment:1003", "github:acme:ticket:shared/app#1", "github:acme:ticket:shared/app#2"].sort(),
  );
  assert.equal(itemsB.size, 3, "the same objects under another scope are other items");
  for (const id of itemsB.keys()) assert.ok(id.startsWith("github:globex:"), id);
  const comment = itemsA.get("github:acme:comment:shared/app:comment:1003")!;
  assert.equal(comment.parent_id, "github:acme:ticket:shared/app#1");
  assert.equal(comment.thread_id, "shared/app#1");
  const prMeta = JSON.parse(itemsA.get("github:acme:ticket:shared/app#2")!.content) as { fields: { is_pr: boolean } };
  assert.equal(prMeta.fields.is_pr, true);

  // Edit, a new comment, a deletion; an untouched issue is not re-ingested.
  github.clock = () => Date.now() + 60_000;
  github.editIssue("shared/app", bug, { title: "Crash on login (Safari only)" });
  github.comment("shared/app", pr, { body: "LGTM", user: "ada" });
  const gone = github.openIssue("shared/app", { title: "Temporary", body: "to be deleted", user: "ada" });
  await syncNow(t, a);
  assert.equal((await connectorItems(t, a)).size, 5);
  github.deleteIssue("shared/app", gone);
  await syncNow(t, a);
  const after = await connectorItems(t, a);
  assert.match(after.get("github:acme:ticket:shared/app#1")!.content, /Safari only/);
  assert.equal(after.has(`github:acme:ticket:shared/app#${gone}`), false, "deleted at the provider, removed here");
  assert.equal(after.get("github:acme:ticket:shared/app#2")!.generation, 1, "unchanged: not re-ingested");
  assert.equal(after.size, 4);

  // The primary rate limit is exhausted: the run waits for x-ratelimit-reset in the queue.
  const resetAt = Date.now() + 10 * 60_000;
  github.exhaustRateLimit(resetAt);
  expectStatus(await t.request("POST", `/connectors/${a}/sync`), 202, "sync under rate limit");
  const waiting = await eventually(async () => {
    const jobs = await t.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "connector.sync").where("status", "=", "queued").execute();
    return jobs.find((j) => j.run_at >= resetAt - 1000) ?? null;
  });
  assert.ok(waiting.run_at <= resetAt + 1000, "rescheduled at the reset time");
  github.exhaustRateLimit(0);
  await t.app.store.db.updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", waiting.id).execute();
  t.app.worker.wake();
  await eventually(async () => (await connector(t, a)).sync_status === "idle");
  assert.equal((await connector(t, a)).last_error, "");

  // The scheduler: nothing is due before the interval, the connector is due after it.
  const control = t.app.connectors.control;
  assert.equal(await control.scheduleDue(Date.now()), 0);
  const cycles = Number((await connector(t, a)).sync_cycles_completed);
  assert.equal(await control.scheduleDue(Date.now() + 3601_000), 2, "both connectors are due after an hour");
  t.app.worker.wake();
  await eventually(async () => Number((await connector(t, a)).sync_cycles_completed) === cycles + 1 && (await connector(t, a)).sync_status === "idle", 20_000);
  assert.equal((await connectorItems(t, a)).size, 4, "still every object once");

  // Removing a resource, then the connector, keeps what was ingested.
  expectStatus(await t.request("DELETE", `/connectors/${b}/resources/shared%2Fapp`), 200, "delete resource");
  expectStatus(await t.request("DELETE", `/connectors/${b}`), 200, "delete connector");
  assert.equal((await connectorItems(t, b)).size, 4);
  assert.equal((await t.request("GET", `/connectors/${b}`)).status, 404);
});
