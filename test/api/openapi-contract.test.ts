import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { startTestApp } from "../helpers/harness.js";
import { ResponseContract, type OpenApiDoc } from "../helpers/response-contract.js";

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
type Doc = OpenApiDoc & { paths: Record<string, Record<string, { responses?: Responses }>> };

const openApiPath = (url: string): string => url.replace(/:([A-Za-z_]+)/g, "{$1}");

test("/openapi.json declares a response schema for every registered route and status, at least one 2xx each", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const doc = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as Doc;
  const routes = app.app.server.routeTable.filter((r) => r.method !== "HEAD" && !r.hidden && !r.url.startsWith("/docs"));
  assert.ok(routes.length >= 70, `the route table lists the routes (${routes.length})`);
  const problems: string[] = [];
  let statuses = 0;
  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    const responses = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]?.responses;
    if (!responses) {
      problems.push(`${name}: not in the document`);
      continue;
    }
    if (!Object.keys(responses).some((s) => s.startsWith("2"))) problems.push(`${name}: no 2xx response`);
    for (const [status, response] of Object.entries(responses)) {
      statuses += 1;
      const schemas = Object.values(response.content ?? {}).map((c) => c.schema);
      if (schemas.length === 0 || schemas.some((s) => s === undefined)) problems.push(`${name} ${status}: no response schema`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(statuses >= routes.length * 5, `statuses declared: ${statuses}`);
});

test("the response check fails a body with an undeclared field, a wrong type or an undeclared status", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const contract = new ResponseContract(app.app.server.swagger() as unknown as OpenApiDoc);
  const json = "application/json; charset=utf-8";
  const ok = { status: "ok" };
  assert.equal(contract.problem("GET", "/healthz", 200, json, JSON.stringify(ok)), null);
  assert.match(contract.problem("GET", "/healthz", 200, json, JSON.stringify({ ...ok, leaked: 1 })) ?? "", /additional properties/);
  assert.match(contract.problem("GET", "/healthz", 200, json, JSON.stringify({ status: 1 })) ?? "", /must be string/);
  assert.match(contract.problem("GET", "/healthz", 418, json, "{}") ?? "", /does not declare/);
  // A free-form object declared open accepts any keys.
  const patched = { success: true, message: "m", id: "a", metadata: { any: { nested: [1] } }, additional_metadata: {} };
  const meta = { request_id: "r", latency_ms: 1.5, api_version: "2" };
  const envelope = JSON.stringify({ success: true, data: patched, error: null, meta });
  assert.equal(contract.problem("PATCH", "/context/x/metadata", 200, json, envelope), null);
});

test("the document generates TypeScript types (openapi-typescript) that a typed client type-checks against", async (t) => {
  const app = await startTestApp();
  const dir = await mkdtemp(join(tmpdir(), "openapi-client-"));
  t.after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  const doc = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
  await writeFile(join(dir, "api.ts"), astToString(await openapiTS(doc)));
  const client = `
import type { paths } from "./api";
type Json<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: infer R } ? (S extends keyof R ? (R[S] extends { content: { "application/json": infer B } } ? B : never) : never) : never;

export async function call<P extends keyof paths, M extends keyof paths[P] & string, S extends number>(base: string, path: P, method: M, _status: S): Promise<Json<P, M, S>> {
  const res = await fetch(base + String(path), { method });
  return (await res.json()) as Json<P, M, S>;
}

export async function use(base: string): Promise<string[]> {
  const status = await call(base, "/databases/status", "get", 200);
  const ready: boolean = status.data.infra.ready_for_ingestion;
  const query = await call(base, "/query", "post", 200);
  const first: string | undefined = query.data.chunks[0]?.chunk_content;
  const missing = await call(base, "/query", "post", 404);
  const code: "DATABASE_NOT_FOUND" | string = missing.error.code;
  const tenants = await call(base, "/tenants/tenant_ids", "get", 200);
  const legacy = await call(base, "/recall/full_recall", "post", 400);
  const connector = await call(base, "/connectors", "post", 201);
  // @ts-expect-error an undeclared field is not part of the generated type
  void connector.credentials;
  return [String(ready), first ?? "", code, ...tenants.tenant_ids, legacy.detail.message, connector.lifecycle];
}
`;
  await writeFile(join(dir, "client.ts"), client);
  const program = ts.createProgram([join(dir, "client.ts")], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    skipLibCheck: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  assert.deepEqual(diagnostics, []);
});

test("every route's schemas compile: those left for their first request, as the service compiles them once it listens", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const deferred = app.app.server.deferredSchemas;
  const before = deferred.size;
  // Each route has a validator per request part it declares and a serializer per response status.
  assert.ok(before >= app.app.server.routeTable.length, `schemas waiting before any request: ${before}`);
  const res = await app.request("GET", "/databases");
  assert.equal(res.status, 200, res.text);
  assert.ok(deferred.size < before, "the first request compiled its route's schemas");
  await deferred.compileAll();
  assert.equal(deferred.size, 0);
  // A bad body is still refused with the spec's code once its validator is compiled ahead.
  const bad = await app.request("POST", "/databases", { body: { name: 42 } });
  assert.equal(bad.status, 400, bad.text);
  assert.equal((bad.body as { error?: { code?: string } }).error?.code, "INVALID_INPUT", bad.text);
});
