import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp, listContext, sourceIds } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";

type Row = Record<string, unknown>;

const ROOT_TS = "1700000000.000100";
const slack = (ts: string, text: string, minute: number, thread = true) => ({
  kind: "message",
  provider: "slack",
  external_id: ts,
  created_at: `2024-03-01T10:${String(minute).padStart(2, "0")}:00Z`,
  fields: { channel: "C1", user: `U${minute}`, text, ts, ...(thread ? { thread_ts: ROOT_TS } : {}) },
});

const ghComment = (id: string, body: string, minute: number) => ({
  kind: "comment",
  provider: "github",
  external_id: id,
  created_at: `2024-03-02T09:${String(minute).padStart(2, "0")}:00Z`,
  fields: { body, issue_id: "github:ticket:42", author: { login: `dev${minute}` } },
});

describe("POST /context/list with fold_threads", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "chat");
    await ingestApp(t, "chat", [
      slack(ROOT_TS, "Deploy failed on prod", 0),
      slack("1700000060.000200", "Looking into it", 1),
      slack("1700000120.000300", "Rolled back", 2),
      slack("1700000180.000400", "All green again", 3),
      slack("1700000999.000900", "Lunch anyone?", 30, false),
      {
        kind: "ticket",
        provider: "github",
        external_id: "42",
        title: "Crash on start",
        created_at: "2024-03-02T09:00:00Z",
        fields: { body: "The app crashes on start", state: "open" },
      },
      ghComment("c1", "Reproduced on macOS", 1),
      ghComment("c2", "Fixed in #43", 2),
      {
        kind: "comment",
        provider: "github",
        external_id: "c9",
        created_at: "2024-03-02T09:05:00Z",
        fields: { body: "Orphan comment", issue_id: "github:ticket:999" },
      },
    ]);
  });
  after(async () => t.close());

  const roots = ["github:comment:c9", "github:ticket:42", `slack:message:${ROOT_TS}`, "slack:message:1700000999.000900"];

  test("without folding every item is a row", async () => {
    const res = await listContext(t, { database: "chat" });
    assert.equal(field(res.body, "data.total"), 9);
    assert.equal(field<Row[]>(res.body, "data.sources")[0]?.comments, undefined);
  });

  test("thread roots carry their messages and comments, newest first; totals count roots only", async () => {
    const res = await listContext(t, { database: "chat", fold_threads: true });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(sourceIds(res), roots);
    assert.equal(field(res.body, "data.total"), 4);
    const rows = field<Row[]>(res.body, "data.sources");
    const thread = rows.find((r) => r.id === `slack:message:${ROOT_TS}`);
    const replies = thread?.comments as Row[];
    assert.deepEqual(
      replies.map((c) => c.text),
      ["All green again", "Rolled back", "Looking into it"],
    );
    assert.equal(replies[0]?.app_kind, "message");
    assert.equal(replies[0]?.timestamp, "2024-03-01T10:03:00.000Z");
    assert.equal(thread?.comments_truncated, false);
    const issue = rows.find((r) => r.id === "github:ticket:42");
    assert.deepEqual(
      (issue?.comments as Row[]).map((c) => c.id),
      ["github:comment:c2", "github:comment:c1"],
    );
    assert.equal((issue?.comments as Row[])[0]?.text, "Fixed in #43");
    assert.equal(issue?.app_kind, "ticket");
    assert.equal(issue?.app_provider, "github");
    assert.equal(issue?.app_external_id, "42");
    // a comment whose parent is not stored stays a row of its own, with nothing folded under it
    assert.deepEqual(rows.find((r) => r.id === "github:comment:c9")?.comments, []);
    assert.deepEqual(rows.find((r) => r.id === "slack:message:1700000999.000900")?.comments, []);
  });

  test("max_comments caps each root and sets comments_truncated", async () => {
    const res = await listContext(t, { database: "chat", fold_threads: true, max_comments: 2 });
    const rows = field<Row[]>(res.body, "data.sources");
    const thread = rows.find((r) => r.id === `slack:message:${ROOT_TS}`);
    assert.deepEqual(
      (thread?.comments as Row[]).map((c) => c.text),
      ["All green again", "Rolled back"],
    );
    assert.equal(thread?.comments_truncated, true);
    assert.equal(rows.find((r) => r.id === "github:ticket:42")?.comments_truncated, false);
    const bad = await listContext(t, { database: "chat", fold_threads: true, max_comments: 0 });
    assert.equal(bad.status, 400);
  });

  test("pagination runs over folded rows", async () => {
    const first = await listContext(t, { database: "chat", fold_threads: true, page_size: 3 });
    const second = await listContext(t, { database: "chat", fold_threads: true, page_size: 3, page: 2 });
    assert.equal(field(first.body, "data.pagination.total_pages"), 2);
    assert.deepEqual([...sourceIds(first), ...sourceIds(second)].sort(), roots);
  });

  test("an item whose root is filtered out is listed as a row itself", async () => {
    const res = await listContext(t, { database: "chat", fold_threads: true, ids: ["github:comment:c1", "github:comment:c2"] });
    assert.deepEqual(sourceIds(res), ["github:comment:c1", "github:comment:c2"]);
    const bySource = await listContext(t, { database: "chat", fold_threads: true, filters: { source_fields: { type: "comment" } } });
    assert.deepEqual(sourceIds(bySource), ["github:comment:c1", "github:comment:c2", "github:comment:c9"]);
  });

  test("folding is knowledge-only: memory lists ignore it", async () => {
    const res = await listContext(t, { database: "chat", type: "memory", fold_threads: true });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(field(res.body, "data.user_memories"), []);
  });
});

describe("POST /context/list with acl", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "sec");
    const item = (id: string, acl?: string[]) => ({ id, type: "note", content: { text: `doc ${id}` }, ...(acl ? { acl } : {}) });
    await ingestApp(t, "sec", [
      item("public"),
      item("ada-only", ["ada@example.com"]),
      item("example-domain", ["domain:example.com"]),
      item("eng-group", ["group:okta:eng"]),
      item("other", ["bob@other.org", "group:okta:ops"]),
    ]);
  });
  after(async () => t.close());

  const visible = async (acl: unknown) => sourceIds(await listContext(t, { database: "sec", acl }));

  test("without acl every item is listed", async () => {
    assert.equal((await visible(undefined)).length, 5);
    assert.equal((await visible(null)).length, 5);
  });

  test("a user sees unrestricted items, their own grants and their domain's", async () => {
    assert.deepEqual(await visible(["ada@example.com"]), ["ada-only", "example-domain", "public"]);
    assert.deepEqual(await visible(["carl@example.com"]), ["example-domain", "public"]);
    assert.deepEqual(await visible(["ADA@Example.COM"]), ["ada-only", "example-domain", "public"]);
    assert.deepEqual(await visible(["eve@elsewhere.net"]), ["public"]);
  });

  test("groups, several principals, and the comma-separated form", async () => {
    assert.deepEqual(await visible(["group:okta:eng"]), ["eng-group", "public"]);
    assert.deepEqual(await visible("group:okta:eng, bob@other.org"), ["eng-group", "other", "public"]);
    assert.deepEqual(await visible(["domain:example.com"]), ["example-domain", "public"]);
  });

  test("the acl narrows the total, and a non-list acl is 400", async () => {
    const res = await listContext(t, { database: "sec", acl: ["carl@example.com"], page_size: 1 });
    assert.equal(field(res.body, "data.total"), 2);
    const bad = await listContext(t, { database: "sec", acl: 5 });
    assert.equal(bad.status, 400);
  });
});
