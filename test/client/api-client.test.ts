import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { generateClientTypes } from "../../scripts/client-types.js";
import { ApiError, createApiClient } from "../../src/client/api-client.js";
import { startTestApp } from "../helpers/harness.js";

test("src/client/api-types.ts matches the routes the service registers (run `npm run gen:client` after changing one)", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "client-types-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const committed = await readFile(join("src", "client", "api-types.ts"), "utf8");
  assert.equal(await generateClientTypes(dir), committed);
});

test("the client returns the envelope's data, bare bodies as they are, and the service's error code as an ApiError", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const api = createApiClient({ baseUrl: `${app.baseUrl}/`, apiKey: app.key });
  const created = await api.call(api.raw.POST("/databases", { body: { database: "client-db" } }));
  assert.equal(created.database, "client-db");
  const { data: listed, requestId } = await api.callWithRequestId(api.raw.GET("/databases"));
  assert.match(requestId, /\S/, "the answer's request id comes with its data");
  assert.deepEqual(
    listed.databases.map((d) => d.database),
    ["client-db"],
  );
  const catalog = await api.call(api.raw.GET("/connectors/providers"));
  assert.ok("providers" in catalog, "the connector routes answer bare bodies");
  assert.deepEqual(catalog.providers.map((p) => p.provider).sort(), ["github", "gmail", "linear", "notion", "slack"]);

  const missing = await api.call(api.raw.POST("/query", { body: { database: "nope", query: "anything" } })).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(missing instanceof ApiError);
  assert.equal(missing.status, 404);
  assert.equal(missing.code, "DATABASE_NOT_FOUND");
  assert.match(missing.message, /nope/);

  const legacy = await api.call(api.raw.POST("/recall/full_recall", { body: { tenant_id: "nope", query: "q" } })).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(legacy instanceof ApiError, "a legacy {detail} error is read too");
  assert.deepEqual([legacy.status, legacy.code], [404, "DATABASE_NOT_FOUND"]);

  const wrongKey = createApiClient({ baseUrl: app.baseUrl, apiKey: "wrong" });
  const unauthorized = await wrongKey.call(wrongKey.raw.GET("/databases")).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(unauthorized instanceof ApiError);
  assert.deepEqual([unauthorized.status, unauthorized.code], [401, "UNAUTHORIZED"]);
});

test("an unreachable service is an ApiError with the NETWORK_ERROR code, not a crash", async () => {
  const api = createApiClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k" });
  const error = await api.call(api.raw.GET("/databases")).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError);
  assert.deepEqual([error.status, error.code], [0, "NETWORK_ERROR"]);
  assert.match(error.message, /127\.0\.0\.1:9/);
});
