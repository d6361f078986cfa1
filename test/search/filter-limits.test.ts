import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

// At most 500 filter clauses per request (src/features/items/item-visibility.ts). 999 keys under
// additional_metadata answered 500 on SQLite ("Expression tree is too large"), 900 answered 200.
const CAP = 500;

const keys = (n: number, prefix = "k"): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, "v"]));

function assertTooManyClauses(res: HttpResult, code: string, n: number, legacy = false): void {
  assert.equal(res.status, 400, res.text);
  const message = legacy ? field<string>(res.body, "detail.message") : field<string>(res.body, "error.message");
  assert.equal(legacy ? field(res.body, "detail.error_code") : field(res.body, "error.code"), code);
  assert.match(message, new RegExp(`build ${n} clauses .*at most ${CAP} are allowed`));
}

describe("filter clause cap: /query, /context/list and the v1 recall routes", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "caps", { database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
    const items = [{ id: "doc", type: "policy", title: "Policy", content: { text: "Vacation policy for everyone." }, additional_metadata: { k0: "v" } }];
    const res = await ingestMultipart(t, { type: "knowledge", database: "caps", app_knowledge: JSON.stringify(items) });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, "caps", ["doc"]);
  });
  after(async () => t.close());

  const query = (metadataFilters: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<HttpResult> =>
    t.request("POST", "/query", { body: { database: "caps", query: "vacation policy", metadata_filters: metadataFilters, ...extra } });
  const list = (filters: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<HttpResult> =>
    t.request("POST", "/context/list", { body: { database: "caps", filters, ...extra } });
  const recall = (metadataFilters: Record<string, unknown>): Promise<HttpResult> =>
    t.request("POST", "/recall/full_recall", { body: { tenant_id: "caps", query: "vacation policy", metadata_filters: metadataFilters } });

  test("/query: the cap passes, cap + 1 and 999 keys are 400 INVALID_INPUT naming the limit", async () => {
    const ok = await query({ additional_metadata: keys(CAP) });
    assert.equal(ok.status, 200, ok.text);
    assertTooManyClauses(await query({ additional_metadata: keys(CAP + 1) }), "INVALID_INPUT", CAP + 1);
    assertTooManyClauses(await query({ additional_metadata: keys(999) }), "INVALID_INPUT", 999);
    // Declared keys, free-form keys and ACL principals add up; an email principal also binds its domain.
    assertTooManyClauses(await query({ team: "x", additional_metadata: keys(CAP - 2) }, { acl: ["ada@example.com"] }), "INVALID_INPUT", CAP + 1);
    // Undeclared top-level keys are ignored (the spec), so they build nothing and are not counted.
    const undeclared = await query({ ...keys(999, "u"), additional_metadata: keys(10) });
    assert.equal(undeclared.status, 200, undeclared.text);
  });

  test("/context/list: the cap passes, cap + 1 and 999 keys are 400 INVALID_INPUT; ids count too", async () => {
    const ok = await list({ additional_metadata: keys(CAP) });
    assert.equal(ok.status, 200, ok.text);
    assertTooManyClauses(await list({ additional_metadata: keys(CAP + 1) }), "INVALID_INPUT", CAP + 1);
    assertTooManyClauses(await list({ additional_metadata: keys(999) }), "INVALID_INPUT", 999);
    const ids = Array.from({ length: CAP - 1 }, (_, i) => `id${i}`);
    assertTooManyClauses(await list({ additional_metadata: keys(1), source_fields: { type: "policy" } }, { ids }), "INVALID_INPUT", CAP + 1);
    const idsOk = await list({ additional_metadata: keys(1) }, { ids: [...ids.slice(1), "doc"] });
    assert.equal(idsOk.status, 200, idsOk.text);
    assert.deepEqual(
      field<Array<{ id: string }>>(idsOk.body, "data.sources").map((s) => s.id),
      ["doc"],
    );
  });

  test("v1 /recall/full_recall: the cap passes, cap + 1 and 999 keys are 400 INVALID_INPUT in the legacy shape", async () => {
    const ok = await recall({ additional_metadata: keys(CAP) });
    assert.equal(ok.status, 200, ok.text);
    assertTooManyClauses(await recall({ additional_metadata: keys(CAP + 1) }), "INVALID_INPUT", CAP + 1, true);
    assertTooManyClauses(await recall({ document_metadata: keys(999) }), "INVALID_INPUT", 999, true);
  });
});
