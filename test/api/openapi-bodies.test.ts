import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestApp } from "../helpers/harness.js";

type Schema = { properties?: Record<string, { format?: string; description?: string; items?: { format?: string } }>; description?: string; anyOf?: Schema[] };
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> } };

// These take no fields at all (an empty JSON object is tolerated); declaring a body would mislead.
const BODYLESS = new Set([
  "post /webhooks/indexing/deliveries/{delivery_id}/retry",
  "post /webhooks/indexing/test",
  "post /connectors/{id}/sync",
  "post /connectors/{id}/pause",
  "post /connectors/{id}/resume",
]);
// The DELETE routes that read a body (the others are addressed by path or organization alone).
const DELETE_WITH_BODY = [
  "delete /byog/collections",
  "delete /byog/databases",
  "delete /context",
  "delete /databases",
  "delete /databases/collections",
  "delete /memories/delete_memory",
  "delete /tenants",
  "delete /tenants/delete",
];

test("/openapi.json: every POST/PUT/PATCH and every DELETE that reads a body documents its request body", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const res = await fetch(`${app.baseUrl}/openapi.json`);
  assert.equal(res.status, 200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, Operation>> };
  const missing: string[] = [];
  const deletesWithBody: string[] = [];
  let writes = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method} ${path}`;
      if (method === "delete" && op.requestBody) deletesWithBody.push(name);
      if (!["post", "put", "patch"].includes(method)) continue;
      writes += 1;
      if (!op.requestBody && !BODYLESS.has(name)) missing.push(name);
      if (op.requestBody && BODYLESS.has(name)) missing.push(`${name} (documented but takes none)`);
    }
  }
  assert.ok(writes >= 20, `the walk saw the routes (${writes})`);
  assert.deepEqual(missing, []);
  assert.deepEqual(deletesWithBody.sort(), DELETE_WITH_BODY);

  for (const path of ["/context/ingest", "/ingestion/upload_knowledge"]) {
    const content = doc.paths[path]?.post?.requestBody?.content ?? {};
    assert.deepEqual(Object.keys(content).sort(), ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"], path);
    const form = content["multipart/form-data"]!.schema.properties ?? {};
    assert.equal(form.files?.items?.format, "binary", "file parts are documented as binary");
    const urlencoded = content["application/x-www-form-urlencoded"]!.schema.properties ?? {};
    assert.equal(urlencoded.files, undefined, "a urlencoded form carries no files");
    for (const field of ["database", "type", "upsert", "allow_duplicates", "document_metadata", "app_knowledge", "memories", "metadata"]) {
      assert.ok(form[field], `${path}: multipart field ${field}`);
      assert.ok(urlencoded[field], `${path}: urlencoded field ${field}`);
    }
  }
  const create = doc.paths["/databases"]?.post?.requestBody?.content["application/json"]?.schema.properties ?? {};
  assert.match(create.is_embeddings_tenant?.description ?? "", /Not supported/);
  const query = doc.paths["/query"]?.post?.requestBody?.content["application/json"]?.schema.properties ?? {};
  assert.match(JSON.stringify(query.additional_context), /ignored/);
});
