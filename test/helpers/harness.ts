import type { AddressInfo } from "node:net";
import { createApplication, type Application } from "../../src/app.js";
import { loadConfig, type Config } from "../../src/platform/config.js";
import { ResponseContract, type OpenApiDoc } from "./response-contract.js";
import { enterSystemScope, outsideAnyScope } from "../../src/platform/store/row-scope.js";
import { createTestDb, type TestDb } from "./test-db.js";

/**
 * Test code acts as an operator (like the CLI): it reads and writes the store directly, across
 * organizations, so every test file that uses the harness runs in system scope. The application
 * itself is started outside it (see startTestApp).
 */
enterSystemScope();

export interface HttpResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  key?: string | null;
  query?: Record<string, string | string[]>;
}

/** The app's clock: real time plus whatever a test advanced it by (it never goes back). */
export interface TestClock {
  readonly now: () => number;
  /** Moves the app's time forward, as if `ms` had passed: what expires within them has expired. */
  readonly advance: (ms: number) => void;
}

function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      if (!(ms >= 0)) throw new Error(`a clock only moves forward, not by ${ms} ms`);
      offset += ms;
    },
  };
}

export interface TestApp {
  readonly app: Application;
  readonly clock: TestClock;
  readonly baseUrl: string;
  readonly db: TestDb;
  /** A key of a fresh organization created for this app. */
  readonly key: string;
  readonly orgId: string;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** Throws unless a response honours the app's OpenAPI document (t.request checks each of its own). */
  checkContract(method: string, path: string, res: { status: number; headers: Headers; text: string }): void;
  /** Another organization with its own key. */
  newOrgKey(): Promise<{ key: string; orgId: string }>;
  close(): Promise<void>;
}

/** The configuration of an in-process test application on `db`, `env` over the tests' defaults. */
export function testAppConfig(db: TestDb, env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: "silent",
    DATA_DIR: db.dataDir,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    JOB_POLL_MS: "20",
    PORT: "0",
    // One batch thread beside the query lane, as for the spawned servers (server-process.ts): two
    // test files share this machine's two cores, and each model thread costs about 2.5 s of CPU to
    // start (measured 2026-11-29). A test of the thread count sets it.
    EMBEDDING_WORKERS: "1",
    ...env,
  });
}

/** Starts the real application in-process on 127.0.0.1 with an isolated store. */
export async function startTestApp(env: Record<string, string> = {}, db?: TestDb): Promise<TestApp> {
  const testDb = db ?? (await createTestDb({ migrated: true }));
  const config = testAppConfig(testDb, env);
  const clock = testClock();
  // The application starts in no scope, as in production (src/main.ts): what it runs on its own
  // (requests, jobs, timers) must state its scope, or it sees no tenant row on PostgreSQL.
  const app = await outsideAnyScope(() => createApplication(config, { now: clock.now }));
  await outsideAnyScope(() => app.server.listen({ port: 0, host: "127.0.0.1" }));
  outsideAnyScope(() => app.worker.start());
  const port = (app.server.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  const newOrgKey = async (): Promise<{ key: string; orgId: string }> => {
    const org = await app.orgs.createOrganization("test");
    const created = await app.orgs.createKey(org.id, "test");
    return { key: created.key, orgId: org.id };
  };
  const first = await newOrgKey();

  let contract: ResponseContract | null = null;
  const checkContract = (method: string, path: string, res: { status: number; headers: Headers; text: string }): void => {
    contract ??= new ResponseContract(app.server.swagger() as unknown as OpenApiDoc);
    const problem = contract.problem(method, new URL(path, baseUrl).pathname, res.status, res.headers.get("content-type"), res.text);
    if (problem !== null) throw new Error(`response contract: ${problem}`);
  };

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> => {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, item);
    }
    const headers: Record<string, string> = { "API-Version": "2", ...(options.headers ?? {}) };
    const key = options.key === undefined ? first.key : options.key;
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // A body that is not JSON: tests read it from `text`.
      parsed = {};
    }
    checkContract(method, url.pathname, { status: res.status, headers: res.headers, text });
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    app,
    clock,
    baseUrl,
    db: testDb,
    key: first.key,
    orgId: first.orgId,
    request,
    checkContract,
    newOrgKey,
    async close() {
      await app.close();
      if (!db) await testDb.drop();
    },
  };
}

/** Polls until fn returns a truthy value; used for asynchronous state such as provisioning. */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export function field<T = unknown>(obj: unknown, path: string): T {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    cur = cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[part] : undefined;
  }
  return cur as T;
}

/** Creates a database and waits until it is ready for ingestion. */
export async function createReadyDatabase(t: TestApp, name: string, extra: Record<string, unknown> = {}, key?: string): Promise<void> {
  const res = await t.request("POST", "/databases", { body: { database: name, ...extra }, key });
  if (res.status !== 202) throw new Error(`create ${name} failed: ${res.status} ${res.text}`);
  await eventually(async () => {
    const s = await t.request("GET", "/databases/status", { query: { database: name }, key });
    return field<boolean>(s.body, "data.infra.ready_for_ingestion");
  });
}
