import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp, ingestMemories } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { membersById, SLACK_ROOT, slackThread, subgraph } from "./graph-fixtures.js";

/** A chain a0 -> a1 -> ... -> a11 of references, one hop per link. */
const chain = Array.from({ length: 12 }, (_, i) => ({
  id: `a${i}`,
  type: "document",
  title: `Chain ${i}`,
  content: { text: `Chain document number ${i}` },
  ...(i < 11 ? { relations: { ids: [`a${i + 1}`] } } : {}),
}));

/** A hub linked to ten spokes, and each spoke to one leaf. */
const star = [
  { id: "hub", type: "document", title: "Hub", content: { text: "The hub" }, relations: { ids: Array.from({ length: 10 }, (_, i) => `spoke${i}`) } },
  ...Array.from({ length: 10 }, (_, i) => ({
    id: `spoke${i}`,
    type: "document",
    title: `Spoke ${i}`,
    content: { text: `Spoke ${i}` },
    relations: { ids: [`leaf${i}`] },
  })),
  ...Array.from({ length: 10 }, (_, i) => ({ id: `leaf${i}`, type: "document", title: `Leaf ${i}`, content: { text: `Leaf ${i}` } })),
];

describe("GET /context/{id}/subgraph rules", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "sg");
    await ingestApp(t, "sg", [
      ...chain,
      ...star,
      { id: "lonely", type: "document", title: "Lonely", content: { text: "Nothing links here" } },
      { id: "repo/docs/readme.md", type: "document", title: "Readme", content: { text: "Readme" }, relations: { ids: ["a0"] } },
    ]);
    await ingestApp(t, "sg", [
      { id: "open", type: "document", title: "Open", content: { text: "Visible to all" }, relations: { ids: ["secret"] } },
      { id: "secret", type: "document", title: "Secret", content: { text: "Only for ada" }, acl: ["ada@example.com"], relations: { ids: ["behind-secret"] } },
      { id: "behind-secret", type: "document", title: "Behind", content: { text: "Reached only through the secret" } },
    ]);
    await ingestApp(t, "sg", slackThread);
    await ingestMemories(t, "sg", [
      { id: "mem-1", text: "Ada prefers tea", relations: { ids: ["mem-2"] } },
      { id: "mem-2", text: "Ada lives in London" },
      // A memory with the same id as a knowledge item: the two graphs never connect.
      { id: "a0", text: "A memory sharing an id with a knowledge item", relations: { ids: ["mem-1"] } },
    ]);
  });
  after(async () => t.close());

  test("breadth-first from depth 0; default depth 5; members carry the wire fields", async () => {
    const res = await subgraph(t, "a0", { database: "sg" });
    assert.equal(res.status, 200, res.text);
    const data = res.data;
    assert.equal(data.seed_source_id, "a0");
    assert.deepEqual(
      data.sources.map((m) => [m.source_id, m.depth]),
      [
        ["a0", 0],
        ["a1", 1],
        ["repo/docs/readme.md", 1],
        ["a2", 2],
        ["a3", 3],
        ["a4", 4],
        ["a5", 5],
      ],
    );
    const start = data.sources[0];
    assert.equal(start?.hydration, "resolved");
    assert.equal(start?.discovered_via, undefined);
    assert.equal(start?.discovered_relation, undefined);
    assert.equal(start?.title, "Chain 0");
    for (const key of ["app_kind", "app_provider", "app_external_id", "thread_id"]) assert.ok(start !== undefined && key in start, key);
    assert.equal(membersById(data).get("a3")?.discovered_via, "a2");
    assert.equal(data.max_depth_reached, 5);
    assert.equal(data.is_truncated, false);
    assert.equal(data.relations.length, 6, "one references link per hop among members");
  });

  test("depth bounds: 1 and 10 accepted, 0, 11 and text answer 400 INVALID_INPUT", async () => {
    assert.equal((await subgraph(t, "a0", { database: "sg", depth: "1" })).data.max_depth_reached, 1);
    const deep = await subgraph(t, "a0", { database: "sg", depth: "10" });
    assert.equal(deep.data.max_depth_reached, 10);
    for (const depth of ["0", "11", "abc", "2.5"]) {
      const res = await subgraph(t, "a0", { database: "sg", depth });
      assert.equal(res.status, 400, depth);
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
    for (const max of ["0", "1001"]) assert.equal((await subgraph(t, "a0", { database: "sg", max_sources: max })).status, 400);
  });

  test("max_sources clips, keeps the members nearest the start and sets is_truncated", async () => {
    const res = await subgraph(t, "hub", { database: "sg", max_sources: "8" });
    assert.equal(res.data.sources.length, 8);
    assert.equal(res.data.is_truncated, true);
    assert.ok(
      res.data.sources.every((m) => m.depth <= 1),
      "no leaf admitted before every spoke",
    );
    const all = await subgraph(t, "hub", { database: "sg", max_sources: "21" });
    assert.equal(all.data.is_truncated, false);
    assert.equal(all.data.sources.length, 21);
    assert.deepEqual(
      all.data.sources.slice(0, 11).map((m) => m.depth),
      [0, ...Array.from({ length: 10 }, () => 1)],
    );
    assert.equal((await subgraph(t, "hub", { database: "sg", max_sources: "1" })).data.sources.length, 1);
  });

  test("unknown id: 200 with an empty subgraph; an isolated item is a single member", async () => {
    const unknown = await subgraph(t, "nope", { database: "sg" });
    assert.equal(unknown.status, 200);
    assert.deepEqual([unknown.data.sources, unknown.data.relations, unknown.data.auxiliary_relations, unknown.data.max_depth_reached], [[], [], [], 0]);
    const lonely = await subgraph(t, "lonely", { database: "sg" });
    assert.deepEqual(
      lonely.data.sources.map((m) => [m.source_id, m.depth]),
      [["lonely", 0]],
    );
    assert.equal(lonely.data.max_depth_reached, 0);
  });

  test("acl filters every hop, repeated or comma-separated; a hidden start answers empty", async () => {
    const anonymous = await subgraph(t, "open", { database: "sg" });
    assert.deepEqual(
      anonymous.data.sources.map((m) => m.source_id),
      ["open", "secret", "behind-secret"],
      "no acl: no scoping",
    );
    const bob = await subgraph(t, "open", { database: "sg", acl: "bob@example.com" });
    assert.deepEqual(
      bob.data.sources.map((m) => m.source_id),
      ["open"],
      "the hidden item also hides what lies behind it",
    );
    const ada = await subgraph(t, "open", { database: "sg", acl: ["bob@example.com", "ada@example.com"] });
    assert.equal(ada.data.sources.length, 3);
    const adaComma = await subgraph(t, "open", { database: "sg", acl: "bob@example.com,ada@example.com" });
    assert.equal(adaComma.data.sources.length, 3);
    const hidden = await subgraph(t, "secret", { database: "sg", acl: "bob@example.com" });
    assert.equal(hidden.status, 200);
    assert.deepEqual(hidden.data.sources, []);
  });

  test("type: memory and knowledge graphs never connect; all is deprecated and answered from knowledge", async () => {
    const memory = await subgraph(t, "a0", { database: "sg", type: "memory" });
    assert.deepEqual(
      memory.data.sources.map((m) => m.source_id),
      ["a0", "mem-1", "mem-2"],
    );
    const knowledge = await subgraph(t, "mem-1", { database: "sg" });
    assert.deepEqual(knowledge.data.sources, []);
    const all = await subgraph(t, "a0", { database: "sg", type: "all", depth: "1" });
    assert.equal(all.status, 200);
    assert.equal(all.headers.get("deprecation"), "true");
    assert.ok(field<unknown[]>(all.body, "meta.deprecation").length > 0);
    assert.deepEqual(
      all.data.sources.map((m) => m.source_id),
      ["a0", "a1", "repo/docs/readme.md"],
    );
  });

  test("ids with a literal '/' through ?id=, tenant_id / sub_tenant_id aliases", async () => {
    const res = await t.request("GET", "/context/subgraph", { query: { id: "repo/docs/readme.md", tenant_id: "sg", sub_tenant_id: "sg", depth: "1" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      field<Array<{ source_id: string }>>(res.body, "data.sources").map((m) => m.source_id),
      ["repo/docs/readme.md", "a0"],
    );
    assert.equal(res.headers.get("deprecation"), "true");
    const encoded = await subgraph(t, "repo/docs/readme.md", { database: "sg", depth: "1" });
    assert.equal(encoded.data.sources.length, 2);
    assert.equal((await t.request("GET", "/context/subgraph", { query: { database: "sg" } })).status, 400);
    const conflict = await t.request("GET", "/context/subgraph", { query: { id: "a0", database: "sg", tenant_id: "other" } });
    assert.equal(conflict.status, 400);
  });

  test("thread members: discovered over same_thread, relations among members, max_depth_reached", async () => {
    const res = await subgraph(t, "slack:message:1700000060.000200", { database: "sg" });
    const members = membersById(res.data);
    assert.equal(members.get(`slack:message:${SLACK_ROOT}`)?.discovered_relation, "same_thread");
    assert.equal(members.get(`slack:message:${SLACK_ROOT}`)?.thread_id, SLACK_ROOT);
    assert.equal(members.get(`slack:message:${SLACK_ROOT}`)?.app_provider, "slack");
    assert.equal(members.get(`slack:message:${SLACK_ROOT}`)?.app_kind, "message");
    assert.equal(res.data.max_depth_reached, 1);
    assert.ok(res.data.auxiliary_relations.some((tr) => tr.relations[0]?.canonical_predicate === "sent"));
  });

  test("rate-limited like a query: the per-key limiter answers 429 with Retry-After", async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i += 1) codes.push((await limited.request("GET", "/context/subgraph", { query: { id: "x", database: "none" } })).status);
      assert.equal(codes.includes(429), true, codes.join(","));
      const res = await limited.request("GET", "/context/subgraph", { query: { id: "x", database: "none" } });
      assert.equal(res.status, 429);
      assert.ok(res.headers.get("retry-after"));
    } finally {
      await limited.close();
    }
  });
});
