import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

/** GET /context/inspect with a chosen Host header (fetch does not let a caller set it). */
function inspectWithHost(t: TestApp, host: string): Promise<Record<string, unknown>> {
  const url = new URL("/context/inspect?database=docs&id=guide&mode=url", t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Host: host, Authorization: `Bearer ${t.key}`, "API-Version": "2", "X-Forwarded-Host": host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        try {
          resolve(JSON.parse(text) as Record<string, unknown>);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function withGuide(env: Record<string, string>, check: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp(env);
  try {
    await createReadyDatabase(t, "docs");
    const res = await ingestMultipart(t, { type: "knowledge", database: "docs", document_metadata: JSON.stringify([{ id: "guide" }]) }, [
      { name: "guide.md", content: "# Guide\n\nHello.", type: "text/markdown" },
    ]);
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, "docs", ["guide"]);
    await check(t);
  } finally {
    await t.close();
  }
}

describe("presigned_url is built from PUBLIC_URL, never from the Host header", () => {
  test("default: http://HOST:<bound port>, whatever Host the caller sends", async () => {
    await withGuide({}, async (t) => {
      const body = await inspectWithHost(t, "evil.example");
      const url = String(field(body, "data.presigned_url"));
      assert.ok(url.startsWith(`${t.baseUrl}/context/files/`), url);
      assert.doesNotMatch(url, /evil\.example/);
      assert.equal((await fetch(url)).status, 200);
    });
  });

  test("PUBLIC_URL, with a path prefix and a trailing slash, is the base", async () => {
    await withGuide({ PUBLIC_URL: "https://files.example.com/store/" }, async (t) => {
      const url = String(field(await inspectWithHost(t, "evil.example"), "data.presigned_url"));
      assert.match(url, /^https:\/\/files\.example\.com\/store\/context\/files\/[A-Za-z0-9_-]+$/);
    });
  });
});
