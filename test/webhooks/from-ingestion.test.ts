import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { FAST_RETRIES } from "../helpers/webhook-fixtures.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

describe("webhooks fed by the real ingestion pipeline", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
    receiver = await startReceiver();
    const reg = await t.request("POST", "/webhooks/indexing", { body: { url: receiver.url, generate_signing_secret: true } });
    assert.equal(reg.status, 200, reg.text);
    receiver.options = { secret: field<string>(reg.body, "signing_secret") };
    await createReadyDatabase(t, "hooked");
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test("completed and errored items each produce one signed indexing.status_changed delivery", async () => {
    const res = await ingestMultipart(t, { type: "knowledge", database: "hooked", document_metadata: JSON.stringify([{ id: "good" }, { id: "bad" }]) }, [
      { name: "good.md", content: "# Good\n\nA fine document.", type: "text/markdown" },
      { name: "bad.pdf", content: "%PDF-1.7\n garbage that is not a pdf", type: "application/pdf" },
    ]);
    assert.equal(res.status, 202, res.text);
    const rows = await waitTerminal(t, "hooked", ["good", "bad"]);
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "errored"],
    );
    const events = await eventually(async () => {
      const got = [...receiver.accepted.values()];
      return got.length >= 2 ? got : null;
    }, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.accepted.size, 2, "one delivery per terminal outcome, none for intermediate states");
    const byItem = new Map(events.map((e) => [e.json.item_id, e]));
    assert.equal(byItem.get("good")?.json.indexing_status, "completed");
    assert.equal(byItem.get("bad")?.json.indexing_status, "errored");
    assert.equal(byItem.get("bad")?.json.error_code, "PROCESSING_FAILED");
    for (const e of events) {
      assert.equal(e.verified, true);
      assert.equal(e.json.database, "hooked");
      const record = await t.request("GET", `/webhooks/indexing/deliveries/${e.deliveryId}`);
      assert.equal(record.status, 200);
      assert.equal(record.body.doc_id, e.json.item_id);
    }
  });
});
