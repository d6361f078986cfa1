import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";

describe("POST /feedback", () => {
  let t: TestApp;
  let query: string;
  before(async () => {
    t = await startTestApp({ WORKERS: "1" });
    await createReadyDatabase(t, "fb");
    query = await logQuery(t.orgId);
  });
  after(async () => t.close());

  async function logQuery(orgId: string, database: string | null = "fb"): Promise<string> {
    const requestId = randomUUID();
    t.app.queryLog.record({ orgId, requestId, database, collection: null });
    return requestId;
  }
  const submit = (body: unknown, key?: string) => t.request("POST", "/feedback", { body, key });
  const stored = (id: string) => t.app.store.db.selectFrom("feedback").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const expect400 = async (body: unknown, why: string, pattern?: RegExp): Promise<void> => {
    const res = await submit(body);
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(field(res.body, "error.code"), "INVALID_INPUT", why);
    if (pattern) assert.match(field<string>(res.body, "error.message"), pattern, why);
  };

  test("a minimal submission is recorded: 201 with the documented data", async () => {
    const res = await submit({ request_id: query, feedback: "The answer missed the refund policy." });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.success, true);
    const data = field<Record<string, unknown>>(res.body, "data");
    assert.match(String(data.feedback_id), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(data.request_id, query);
    assert.equal(data.recorded, true);
    assert.match(String(data.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    assert.equal(typeof data.message, "string");
    assert.equal(field(res.body, "meta.request_id"), res.headers.get("x-request-id"));
    const row = await stored(String(data.feedback_id));
    assert.deepEqual([row.source, row.rating, row.database_name, row.ground_truth, row.metadata], ["user", null, null, null, null]);
  });

  test("every field is stored; ground truth is normalised; submissions accumulate", async () => {
    const body = {
      request_id: query,
      feedback: "Better, but one source is wrong.",
      rating: "negative",
      source: "agent",
      database: "fb",
      collection: "manuals",
      ground_truth: { answer: "Refunds within 30 days.", source_ids: [" doc-1 ", "doc-2", "doc-1", "", "   ", "doc-2"] },
      metadata: { session: "s-1", turn: 3, tags: ["a"] },
    };
    const first = await submit(body);
    const second = await submit(body);
    assert.deepEqual([first.status, second.status], [201, 201]);
    assert.notEqual(field(first.body, "data.feedback_id"), field(second.body, "data.feedback_id"));
    assert.deepEqual([field(first.body, "meta.database"), field(first.body, "meta.collection")], ["fb", "manuals"]);
    const row = await stored(field<string>(first.body, "data.feedback_id"));
    assert.deepEqual([row.rating, row.source, row.database_name, row.collection], ["negative", "agent", "fb", "manuals"]);
    assert.deepEqual(JSON.parse(row.ground_truth ?? "null"), { answer: "Refunds within 30 days.", source_ids: ["doc-1", "doc-2"] });
    assert.deepEqual(JSON.parse(row.metadata ?? "null"), body.metadata);
    const all = await t.app.store.db.selectFrom("feedback").select("id").where("request_id", "=", query).execute();
    assert.ok(all.length >= 3, "each submission is its own row");
  });

  test("ground truth alone is enough; blank values count as unsent", async () => {
    const answerOnly = await submit({ request_id: query, ground_truth: { answer: "42", source_ids: ["  "] } });
    assert.equal(answerOnly.status, 201, answerOnly.text);
    assert.deepEqual(JSON.parse((await stored(field(answerOnly.body, "data.feedback_id"))).ground_truth ?? "null"), { answer: "42" });
    const idsOnly = await submit({ request_id: query, feedback: "   ", ground_truth: { answer: " ", source_ids: ["x", "x"] } });
    assert.equal(idsOnly.status, 201, idsOnly.text);
    const row = await stored(field(idsOnly.body, "data.feedback_id"));
    assert.deepEqual([row.feedback, JSON.parse(row.ground_truth ?? "null")], [null, { source_ids: ["x"] }]);

    await expect400({ request_id: query }, "neither feedback nor ground truth", /feedback/);
    await expect400({ request_id: query, feedback: "  \n " }, "blank feedback", /feedback/);
    await expect400(
      { request_id: query, feedback: "fine", ground_truth: { answer: "  ", source_ids: ["", " "] } },
      "ground truth present but blank",
      /ground_truth/,
    );
    await expect400({ request_id: query, feedback: "fine", ground_truth: {} }, "empty ground truth", /ground_truth/);
    await expect400({ request_id: query, ground_truth: { source_ids: [] } }, "no ids");
    await expect400({ request_id: query, feedback: "x", ground_truth: "the answer" }, "ground truth not an object");
    await expect400({ request_id: query, feedback: "x", ground_truth: { source_ids: ["a", 7] } }, "non-string id");
    await expect400({ request_id: query, feedback: "x", ground_truth: { answer: 7 } }, "non-string answer");
  });

  test("request_id must be a query of this organization", async () => {
    await expect400({ feedback: "x" }, "missing request_id");
    await expect400({ request_id: "not-a-uuid", feedback: "x" }, "not a UUID", /request_id/);
    await expect400({ request_id: 12, feedback: "x" }, "not a string");
    await expect400({ request_id: randomUUID(), feedback: "x" }, "never logged", /request_id/);
    const other = await t.newOrgKey();
    const foreign = await logQuery(other.orgId, null);
    await expect400({ request_id: foreign, feedback: "x" }, "another organization's query", /request_id/);
    assert.equal((await submit({ request_id: foreign, feedback: "x" }, other.key)).status, 201, "its own organization may");
    assert.equal((await submit({ request_id: query.toUpperCase(), feedback: "x" })).status, 201, "UUIDs compare case-insensitively");
  });

  test("feedback text is limited to 8,000 characters", async () => {
    assert.equal((await submit({ request_id: query, feedback: "a".repeat(8000) })).status, 201);
    assert.equal((await submit({ request_id: query, feedback: "😀".repeat(8000) })).status, 201, "characters, not UTF-16 units");
    await expect400({ request_id: query, feedback: "a".repeat(8001) }, "8,001 characters", /8000/);
    await expect400({ request_id: query, feedback: 5 }, "not a string");
  });

  test("rating and source take the documented values; source defaults to user", async () => {
    for (const rating of ["positive", "negative", "neutral"]) {
      assert.equal((await submit({ request_id: query, feedback: "x", rating })).status, 201, rating);
    }
    await expect400({ request_id: query, feedback: "x", rating: "great" }, "unknown rating");
    await expect400({ request_id: query, feedback: "x", rating: 5 }, "numeric rating");
    await expect400({ request_id: query, feedback: "x", source: "system" }, "unknown source");
    const agent = await submit({ request_id: query, feedback: "x", source: "agent" });
    assert.equal((await stored(field(agent.body, "data.feedback_id"))).source, "agent");
  });

  test("database and collection: aliases, collection needs database, unreachable databases are 404", async () => {
    await expect400({ request_id: query, feedback: "x", collection: "c" }, "collection without database", /database/);
    await expect400({ request_id: query, feedback: "x", sub_tenant_id: "c" }, "sub_tenant_id without database", /database/);
    await expect400({ request_id: query, feedback: "x", database: "" }, "empty database");
    await expect400({ request_id: query, feedback: "x", database: "fb", collection: "" }, "empty collection");
    await expect400({ request_id: query, feedback: "x", database: "fb", tenant_id: "other" }, "database and alias differ");

    const missing = await submit({ request_id: query, feedback: "x", database: "nope" });
    assert.equal(missing.status, 404);
    assert.equal(field(missing.body, "error.code"), "DATABASE_NOT_FOUND");
    const other = await t.newOrgKey();
    const otherQuery = await logQuery(other.orgId, null);
    const foreignDb = await submit({ request_id: otherQuery, feedback: "x", database: "fb" }, other.key);
    assert.equal(foreignDb.status, 404, "another organization's database is unreachable");

    const legacy = await submit({ request_id: query, feedback: "x", tenant_id: "fb", sub_tenant_id: "c1" });
    assert.equal(legacy.status, 201, legacy.text);
    assert.equal(legacy.headers.get("deprecation"), "true");
    assert.deepEqual(
      field<Array<{ deprecated_field: string }>>(legacy.body, "meta.deprecation")
        .map((d) => d.deprecated_field)
        .sort(),
      ["sub_tenant_id", "tenant_id"],
    );
    const row = await stored(field(legacy.body, "data.feedback_id"));
    assert.deepEqual([row.database_name, row.collection], ["fb", "c1"]);
  });

  test("metadata must be an object; the body must be JSON", async () => {
    await expect400({ request_id: query, feedback: "x", metadata: ["a"] }, "array metadata");
    await expect400({ request_id: query, feedback: "x", metadata: "k=v" }, "string metadata");
    const res = await t.request("POST", "/feedback", { rawBody: "{not json", headers: { "Content-Type": "application/json" } });
    assert.equal(res.status, 400);
    assert.equal((await t.request("POST", "/feedback", { body: { request_id: query, feedback: "x" }, key: null })).status, 401);
  });

  test("feedback of a deleted database goes with it", async () => {
    await createReadyDatabase(t, "doomed");
    const res = await submit({ request_id: query, feedback: "x", database: "doomed" });
    assert.equal(res.status, 201);
    const id = field<string>(res.body, "data.feedback_id");
    assert.equal((await t.request("DELETE", "/databases", { body: { database: "doomed" } })).status, 202);
    await eventually(async () => !(await t.app.store.db.selectFrom("feedback").select("id").where("id", "=", id).executeTakeFirst()));
  });
});
