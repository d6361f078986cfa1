import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";

/** Deterministic PRNG so a failure is reproducible from the seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return Math.floor(rand() * 2e9) - 1e9;
    case 3:
      return rand() * 1e6;
    case 4:
      return "main_db";
    case 5:
      return String.fromCharCode(...Array.from({ length: Math.floor(rand() * 12) }, () => Math.floor(rand() * 0xffff)));
    case 6:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    default: {
      const keys = ["database", "tenant_id", "collection", "sub_tenant_id", "fields", "database_metadata_schema", "name", "x"];
      return Object.fromEntries(keys.filter(() => rand() < 0.4).map((k) => [k, randomValue(rand, depth + 1)]));
    }
  }
}

/** Values that broke routes before (issue 12): deep nesting, numbers past every bound, wrong types. */
const deep = (depth: number, open: string, close: string, leaf = ""): string => open.repeat(depth) + leaf + close.repeat(depth);
const HOSTILE_VALUES = [
  deep(10_000, "[", "]"),
  deep(10_000, '{"a":', "}", "1"),
  "1e308",
  "-1e308",
  "9007199254740993",
  "1.5",
  "true",
  '"x"',
  "[]",
  "{}",
  '"\\u0000\\u202e"',
];
const HOSTILE_FIELDS = [
  "database",
  "tenant_id",
  "collection",
  "sub_tenant_id",
  "page",
  "page_size",
  "ids",
  "memories",
  "app_knowledge",
  "metadata",
  "additional_metadata",
  "params",
  "query",
  "depth",
  "max_sources",
  "file_ids",
  "source_ids",
  "expiry_time",
  "cursor",
];

const MALFORMED = ['{"database":', "[1,2", "null", "\u0000\u0001", '{"a":1}}', "true", '"str"', "{".repeat(200), ""];

describe("random and malformed input never produces a 5xx", () => {
  let t: TestApp;
  let routes: Array<{ method: string; path: string }> = [];
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "main_db");
    const spec = await t.request("GET", "/openapi.json", { key: null });
    const paths = spec.body.paths as Record<string, Record<string, unknown>>;
    routes = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "main_db") })),
    );
  });
  after(async () => t.close());

  test("every documented route", async () => {
    assert.ok(routes.length >= 15, `found ${routes.length} routes`);
    const rand = prng(20261121);
    let requests = 0;
    for (const { method, path } of routes) {
      for (let i = 0; i < 25; i++) {
        const body = method === "GET" ? undefined : randomValue(rand);
        const query = Object.fromEntries(["database", "tenant_id", "collection", "page"].filter(() => rand() < 0.5).map((k) => [k, String(randomValue(rand))]));
        const res = await t.request(method, path, method === "GET" ? { query } : { body: body ?? {}, query });
        requests++;
        assert.ok(res.status < 500, `${method} ${path} ${JSON.stringify(body)} -> ${res.status} ${res.text}`);
      }
      for (const raw of MALFORMED) {
        if (method === "GET") continue;
        const res = await t.request(method, path, { rawBody: raw, headers: { "Content-Type": "application/json" } });
        requests++;
        assert.ok(res.status >= 400 && res.status < 500, `${method} ${path} raw ${JSON.stringify(raw)} -> ${res.status} ${res.text}`);
      }
      for (const value of HOSTILE_VALUES) {
        for (const name of HOSTILE_FIELDS) {
          if (method === "GET") {
            // query strings carry text: the non-nested values are the interesting ones there
            if (value.length > 100) continue;
            const res = await t.request(method, path, { query: { database: "main_db", [name]: value } });
            requests++;
            assert.ok(res.status < 500, `${method} ${path} ?${name}=${value} -> ${res.status} ${res.text}`);
            continue;
          }
          const rawBody = `{"database":"main_db","tenant_id":"main_db","${name}":${value}}`;
          const res = await t.request(method, path, { rawBody, headers: { "Content-Type": "application/json" } });
          requests++;
          assert.ok(res.status < 500, `${method} ${path} ${name}=${value.slice(0, 40)} -> ${res.status} ${res.text}`);
        }
        if (method === "GET") continue;
        const res = await t.request(method, path, { rawBody: value, headers: { "Content-Type": "application/json" } });
        requests++;
        // An empty object is a well-formed body: a route without required fields may accept it
        // (DELETE /webhooks/indexing does, answering 200), so only a 5xx is wrong there.
        if (value === "{}") assert.ok(res.status < 500, `${method} ${path} raw {} -> ${res.status} ${res.text}`);
        else assert.ok(res.status >= 400 && res.status < 500, `${method} ${path} raw ${value.slice(0, 40)} -> ${res.status} ${res.text}`);
      }
      for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        if (method === "GET") continue;
        const res = await t.request(method, path, { rawBody: "database=main_db", headers: { "Content-Type": contentType } });
        requests++;
        assert.ok(res.status < 500, `${method} ${path} as ${contentType} -> ${res.status} ${res.text}`);
      }
    }
    assert.ok(requests > 300);
  });
});
