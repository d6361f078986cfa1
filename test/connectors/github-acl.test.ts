import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { connectorItems, expectStatus, GITHUB_TOKEN, startConnectorWorld, syncNow } from "./connector-fixtures.js";

test("github: a private repository's items carry its collaborators; one without a public e-mail keeps them restricted to a group", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, github } = w;
  github.addUser("ada", "Ada@Example.com");
  github.addUser("bob", "bob@example.com");
  github.addUser("eve", null);
  github.addRepo("acme/open");
  github.addRepo("acme/secret", { private: true, collaborators: ["ada", "bob"] });
  github.addRepo("acme/hidden", { private: true, collaborators: ["ada", "eve"] });
  for (const repo of ["acme/open", "acme/secret", "acme/hidden"]) github.openIssue(repo, { title: `Issue in ${repo}`, body: "details", user: "ada" });

  const id = String(
    expectStatus(
      await t.request("POST", "/connectors", { body: { provider: "github", database: "db", credentials: { api_token: GITHUB_TOKEN } } }),
      201,
      "create",
    ).connector_id,
  );
  const resources = ["acme/open", "acme/secret", "acme/hidden"].map((resource_id) => ({ resource_id, resource_type: "repository" }));
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources } }), 200, "configure");
  await syncNow(t, id);

  const items = await connectorItems(t, id);
  const aclOf = (repo: string): unknown => {
    const item = [...items.values()].find((i) => i.thread_id === `${repo}#1`);
    assert.ok(item, `the issue of ${repo} was synced`);
    return item.acl === null ? null : JSON.parse(item.acl);
  };
  assert.equal(aclOf("acme/open"), null, "a public repository is unrestricted");
  assert.deepEqual(aclOf("acme/secret"), ["ada@example.com", "bob@example.com"], "collaborators' e-mails, lowercased");
  assert.deepEqual(aclOf("acme/hidden"), ["group:github:acme/hidden"], "a collaborator without a public e-mail: a group principal, never open");

  // The ACL is enforced on reads: a collaborator finds the private issue, a stranger does not.
  const search = async (principal: string): Promise<string[]> => {
    const res = await t.request("POST", "/query", {
      body: { database: "db", query: "Issue in acme/secret", query_apps: true, acl: [principal], max_results: 10 },
    });
    assert.equal(res.status, 200);
    return (res.body.data as { chunks: Array<{ source_id: string }> }).chunks.map((c) => c.source_id);
  };
  await eventually(async () => (await search("bob@example.com")).some((s) => s.includes("acme/secret#1")), 60_000, 200);
  assert.equal(
    (await search("mallory@example.com")).some((s) => s.includes("acme/secret")),
    false,
    "hidden from a non-collaborator",
  );
});
