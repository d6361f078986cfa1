import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, startTestApp } from "../helpers/harness.js";
import { FakeLinear } from "../helpers/fake-providers/linear.js";
import { connectorItems, expectStatus, SECRET_KEY, syncNow } from "./connector-fixtures.js";

const TOKEN = "lin_api_fake_token";

test("linear: issues and comments of a private team carry its members, also through a project that spans teams; public teams stay open", async (tt) => {
  const linear = await FakeLinear.start({ token: TOKEN, organization: "Acme" });
  tt.after(() => linear.close());
  const t = await startTestApp({ CONNECTOR_LINEAR_API_URL: linear.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");

  const ada = linear.addUser("Ada Lovelace", "Ada@Example.com");
  const bob = linear.addUser("Bob Builder", "bob@example.com");
  linear.addUser("Eve Outsider", "eve@example.com");
  const eng = linear.addTeam("ENG", "Engineering");
  const sec = linear.addTeam("SEC", "Security", { private: true, members: [ada, bob] });
  const ghost = linear.addTeam("GHO", "Ghosts", { private: true });
  const launch = linear.addProject("Launch", [eng, sec]);
  const open = linear.addIssue(eng, { title: "Public roadmap item", projectId: launch, creatorId: ada });
  const secret = linear.addIssue(sec, { title: "Pentest findings for the launch", projectId: launch, creatorId: bob });
  const said = linear.comment(secret, { body: "The admin panel leaks tokens", userId: ada });
  const hidden = linear.addIssue(ghost, { title: "A team nobody lists", creatorId: ada });

  const id = String(
    expectStatus(await t.request("POST", "/connectors", { body: { provider: "linear", database: "db", credentials: { api_token: TOKEN } } }), 201, "create")
      .connector_id,
  );
  const resources = [
    { resource_id: launch, resource_type: "linear_project" },
    { resource_id: ghost, resource_type: "linear_team" },
  ];
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources } }), 200, "configure");
  await syncNow(t, id);

  const aclOf = async (kind: "ticket" | "comment", native: string): Promise<unknown> => {
    const item = (await connectorItems(t, id)).get(`linear:Acme:${kind}:${native}`);
    assert.ok(item, `${kind} ${native} was synced`);
    return item.acl === null ? null : JSON.parse(item.acl);
  };
  assert.equal(await aclOf("ticket", open), null, "an issue of a public team is open to the workspace");
  assert.deepEqual(await aclOf("ticket", secret), ["ada@example.com", "bob@example.com"], "a private team's members, lowercased");
  assert.deepEqual(await aclOf("comment", said), ["ada@example.com", "bob@example.com"], "its comments too");
  assert.deepEqual(await aclOf("ticket", hidden), [`group:linear:team:${ghost}`], "no member e-mail: a group principal, never open");

  // A new comment on the old private issue comes through the comments pass, with the same acl.
  const late = linear.comment(secret, { body: "Rotated every token", userId: bob });
  await syncNow(t, id);
  assert.deepEqual(await aclOf("comment", late), ["ada@example.com", "bob@example.com"]);

  // Enforced on reads: a member finds the private issue, an outsider does not.
  const search = async (principal: string): Promise<string[]> => {
    const res = await t.request("POST", "/query", {
      body: { database: "db", query: "Pentest findings for the launch", query_apps: true, acl: [principal], max_results: 10 },
    });
    assert.equal(res.status, 200);
    return (res.body.data as { chunks: Array<{ source_id: string }> }).chunks.map((c) => c.source_id);
  };
  await eventually(async () => (await search("bob@example.com")).includes(`linear:Acme:ticket:${secret}`), 60_000, 200);
  assert.equal((await search("eve@example.com")).includes(`linear:Acme:ticket:${secret}`), false, "hidden from a non-member");
});
