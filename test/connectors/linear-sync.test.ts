import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { FakeLinear } from "../helpers/fake-providers/linear.js";
import { connector, connectorItems, expectStatus, SECRET_KEY, syncNow } from "./connector-fixtures.js";

const TOKEN = "lin_api_fake_token";

test("linear: credentials, discover, issues with comments and sub-issues, edits, new comments, deletions, rate limit, reconnect", async (tt) => {
  const linear = await FakeLinear.start({ token: TOKEN, organization: "Acme" });
  tt.after(() => linear.close());
  const t = await startTestApp({ CONNECTOR_LINEAR_API_URL: linear.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");

  const providers = expectStatus(await t.request("GET", "/connectors/providers"), 200, "providers").providers as Array<{
    provider: string;
    supported: boolean;
  }>;
  assert.equal(providers.find((p) => p.provider === "linear")?.supported, true);
  const detail = expectStatus(await t.request("GET", "/connectors/providers", { query: { id: "linear" } }), 200, "provider detail");
  assert.deepEqual(detail.resource_types, ["linear_team", "linear_project"]);

  // Credentials: wrong keys and a refused token are 422 and store nothing.
  const wrongKeys = await t.request("POST", "/connectors", { body: { provider: "linear", database: "db", credentials: { token: TOKEN } } });
  assert.equal(wrongKeys.status, 422);
  const refused = await t.request("POST", "/connectors", { body: { provider: "linear", database: "db", credentials: { api_token: "lin_api_wrong" } } });
  assert.equal(refused.status, 422);
  assert.equal(field(refused.body, "error.code"), "CREDENTIALS_REJECTED");
  assert.equal((expectStatus(await t.request("GET", "/connectors"), 200, "list").connectors as unknown[]).length, 0, "nothing stored");

  const ada = linear.addUser("Ada Lovelace", "Ada@Example.com");
  const bob = linear.addUser("Bob Builder", "bob@example.com");
  const eng = linear.addTeam("ENG", "Engineering");
  const ops = linear.addTeam("OPS", "Operations");
  const roadmap = linear.addProject("Q3 roadmap", [ops]);
  const crash = linear.addIssue(eng, {
    title: "Login crashes on Safari",
    description: "Stack trace attached",
    creatorId: ada,
    assigneeId: bob,
    labels: ["bug"],
  });
  const sub = linear.addIssue(eng, { title: "Add a Safari test", creatorId: bob, parentId: crash });
  const doomed = linear.addIssue(eng, { title: "Duplicate report", creatorId: bob });
  const first = linear.comment(crash, { body: "Reproduced on Safari 17", userId: bob });
  const reply = linear.comment(crash, { body: "Same here", userId: ada, parentId: first });
  const planned = linear.addIssue(ops, { title: "Rotate the on-call schedule", projectId: roadmap, creatorId: ada });
  linear.addIssue(ops, { title: "Outside the project", creatorId: ada });

  const created = expectStatus(
    await t.request("POST", "/connectors", { body: { provider: "linear", database: "db", credentials: { api_token: TOKEN } } }),
    201,
    "create",
  );
  const id = String(created.connector_id);
  assert.equal(created.provider_account_scope, "Acme", "the scope is the workspace name");

  // Discover pages through teams, then projects.
  const found: Array<{ id: string; resource_type: string }> = [];
  let cursor: string | null = null;
  do {
    const page = expectStatus(await t.request("GET", `/connectors/${id}/discover`, { query: { limit: "1", ...(cursor ? { cursor } : {}) } }), 200, "discover");
    found.push(...(page.resources as Array<{ id: string; resource_type: string }>));
    cursor = page.has_more === true ? String(page.next_cursor) : null;
  } while (cursor !== null);
  assert.deepEqual(found.map((r) => `${r.resource_type}:${r.id}`).sort(), [`linear_project:${roadmap}`, `linear_team:${eng}`, `linear_team:${ops}`].sort());

  const unknown = await t.request("POST", `/connectors/${id}/configure`, {
    body: { resources: [{ resource_id: "no-such-team", resource_type: "linear_team" }] },
  });
  assert.equal(unknown.status, 400, "an unknown team is refused");
  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, {
      body: {
        resources: [
          { resource_id: eng, resource_type: "linear_team" },
          { resource_id: roadmap, resource_type: "linear_project" },
        ],
      },
    }),
    200,
    "configure",
  );
  const synced = await syncNow(t, id);
  assert.equal(synced.lifecycle, "active");
  assert.equal(synced.last_error, "");

  const item = (native: string, kind = "ticket") => `linear:Acme:${kind}:${native}`;
  const items = await connectorItems(t, id);
  assert.deepEqual(
    [...items.keys()].sort(),
    [item(crash), item(sub), item(doomed), item(planned), item(first, "comment"), item(reply, "comment")].sort(),
    "every issue of the team and the project, and every comment, once",
  );
  const crashItem = items.get(item(crash))!;
  assert.equal(crashItem.thread_id, crash);
  const crashContent = JSON.parse(crashItem.content) as { title: string; fields: { identifier: string; assignee: { email: string } } };
  assert.equal(crashContent.fields.identifier, "ENG-1");
  assert.equal(crashContent.fields.assignee.email, "bob@example.com");
  const commentItem = items.get(item(first, "comment"))!;
  assert.equal(commentItem.parent_id, item(crash));
  assert.equal(commentItem.thread_id, crash);
  const meta = JSON.parse(commentItem.additional_metadata) as Record<string, unknown>;
  assert.equal(meta.connector_id, id);
  assert.equal(meta.resource_id, eng);
  assert.equal(meta.linear_identifier, "ENG-1");
  assert.equal(meta.resource_type, "linear_team");
  assert.equal((JSON.parse(items.get(item(planned))!.additional_metadata) as Record<string, unknown>).resource_type, "linear_project");
  const relationsOf = async (sourceId: string) => {
    const row = await t.app.store.db.selectFrom("context_items").select("relations").where("source_id", "=", sourceId).executeTakeFirstOrThrow();
    return (JSON.parse(row.relations) as { ids: string[] }).ids;
  };
  assert.deepEqual(await relationsOf(item(sub)), [item(crash)], "a sub-issue relates to its parent");
  assert.deepEqual(
    (await relationsOf(item(reply, "comment"))).sort(),
    [item(crash), item(first, "comment")].sort(),
    "a reply relates to its issue and the comment it answers",
  );

  // fold_threads: the comments fold under their issue.
  const folded = expectStatus(await t.request("POST", "/context/list", { body: { database: "db", fold_threads: true, page_size: 50 } }), 200, "list");
  const rows = field<Array<{ id: string; comments?: Array<{ id: string }> }>>(folded, "data.sources");
  assert.deepEqual((rows.find((r) => r.id === item(crash))?.comments ?? []).map((c) => c.id).sort(), [item(first, "comment"), item(reply, "comment")].sort());
  assert.equal(
    rows.some((r) => r.id === item(first, "comment")),
    false,
  );

  // At the provider, a minute later: an edit, a new comment on an untouched issue, an edited
  // comment, a deleted comment and a trashed issue.
  linear.clock = () => Date.now() + 60_000;
  linear.editIssue(crash, { title: "Login crashes on Safari 17 only" });
  const late = linear.comment(sub, { body: "Test added in CI", userId: ada });
  linear.editComment(first, "Reproduced on Safari 17.2");
  linear.deleteComment(reply);
  linear.trashIssue(doomed);
  await syncNow(t, id);
  const after = await connectorItems(t, id);
  assert.match(after.get(item(crash))!.content, /Safari 17 only/, "the edit shows up");
  assert.match(after.get(item(first, "comment"))!.content, /17\.2/, "the comment edit shows up");
  assert.equal(after.get(item(late, "comment"))?.parent_id, item(sub), "a new comment on an old issue shows up under it");
  assert.equal(after.has(item(doomed)), false, "a trashed issue is removed");
  assert.equal(after.has(item(reply, "comment")), false, "a deleted comment is removed");
  assert.equal(after.get(item(planned))!.generation, 1, "an unchanged issue is not re-ingested");
  assert.equal(after.size, 5);

  // A rate limit reschedules the run at the reset time; it then completes.
  linear.rateLimitNext(5 * 60_000);
  const started = Date.now();
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync under rate limit");
  const waiting = await eventually(async () => {
    const jobs = await t.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "connector.sync").where("status", "=", "queued").execute();
    return jobs.find((j) => j.run_at >= started + 4 * 60_000) ?? null;
  });
  assert.ok(waiting.run_at <= Date.now() + 5 * 60_000 + 61_000, "rescheduled at the reset time");
  assert.equal((await connector(t, id)).sync_status, "queued");
  await t.app.store.db.updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", waiting.id).execute();
  t.app.worker.wake();
  await eventually(async () => (await connector(t, id)).sync_status === "idle", 20_000);
  assert.equal((await connector(t, id)).last_error, "");
  assert.equal((await connectorItems(t, id)).size, 5, "still every object once");

  // A revoked key: reconnect until new credentials are PATCHed.
  linear.revokeToken(TOKEN);
  const broken = await syncNow(t, id);
  assert.equal(broken.lifecycle, "reconnect");
  assert.match(String(broken.needs_reauth_reason), /authenticat/i);
  linear.tokens.add("lin_oauth_new");
  expectStatus(await t.request("PATCH", `/connectors/${id}`, { body: { credentials: { access_token: "lin_oauth_new" } } }), 200, "patch");
  assert.equal((await syncNow(t, id)).lifecycle, "active");
});
