import assert from "node:assert/strict";
import { field, type HttpResult, type TestApp } from "../helpers/harness.js";

/** Speaks to the graph area of a test app over HTTP. */
export interface GraphClient {
  query(collection: string, query: string, params?: Record<string, unknown>): Promise<HttpResult>;
  /** Runs a query that must succeed and returns its rows. */
  rows(collection: string, query: string, params?: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  collections(): Promise<string[]>;
}

export function graphClient(t: TestApp, database: string, key?: string): GraphClient {
  const query = (collection: string, q: string, params: Record<string, unknown> = {}) =>
    t.request("POST", "/byog/query", { body: { database, collection, query: q, params }, key });
  return {
    query,
    async rows(collection, q, params = {}) {
      const res = await query(collection, q, params);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success, true);
      const data = res.body.data;
      assert.ok(Array.isArray(data), res.text);
      return data as Record<string, unknown>[];
    },
    async collections() {
      const res = await t.request("GET", "/byog/collections", { query: { database }, key });
      assert.equal(res.status, 200, res.text);
      return field<string[]>(res.body, "collections");
    },
  };
}

/** Asserts the graph area's error shape and returns the message. */
export function assertDetailError(res: HttpResult, status: number, code: string | null): string {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ["detail"], res.text);
  assert.equal(field(res.body, "detail.success"), false);
  assert.equal(field(res.body, "detail.error_code"), code);
  const message = field<string>(res.body, "detail.message");
  assert.equal(typeof message, "string");
  return message;
}

export async function createGraphDatabase(t: TestApp, database: string, key?: string): Promise<void> {
  const res = await t.request("POST", "/byog/databases", { body: { database }, key });
  assert.equal(res.status, 200, res.text);
}
