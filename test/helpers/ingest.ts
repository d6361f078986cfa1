import assert from "node:assert/strict";
import { eventually, field, type HttpResult, type TestApp } from "./harness.js";

export interface FilePart {
  name: string;
  content: string | Uint8Array;
  type?: string;
  part?: string;
}

/** POST /context/ingest as multipart/form-data, the way the SDK sends it. */
export async function ingestMultipart(t: TestApp, fields: Record<string, string>, files: FilePart[] = [], key?: string): Promise<HttpResult> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    const bytes = typeof f.content === "string" ? new TextEncoder().encode(f.content) : f.content;
    form.append(f.part ?? "files", new Blob([bytes], { type: f.type ?? "application/octet-stream" }), f.name);
  }
  const res = await fetch(`${t.baseUrl}/context/ingest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key ?? t.key}`, "API-Version": "2" },
    body: form,
  });
  const text = await res.text();
  t.checkContract("POST", "/context/ingest", { status: res.status, headers: res.headers, text });
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
}

export interface StatusRow {
  id: string;
  indexing_status: string;
  error_code: string;
  message: string;
}

export async function statuses(t: TestApp, database: string, ids: string[], collection?: string, key?: string): Promise<StatusRow[]> {
  const res = await t.request("GET", "/context/status", {
    query: { database, ids: ids.join(","), ...(collection ? { collection } : {}) },
    ...(key ? { key } : {}),
  });
  if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
  return field<StatusRow[]>(res.body, "data.statuses");
}

const TERMINAL = new Set(["completed", "errored", "failed"]);

/** Waits until every id reaches a terminal indexing status and returns the rows. */
export async function waitTerminal(t: TestApp, database: string, ids: string[], collection?: string, timeoutMs = 60_000, key?: string): Promise<StatusRow[]> {
  return eventually(
    async () => {
      const rows: StatusRow[] = [];
      // the status route takes up to 1,000 ids per call
      for (let i = 0; i < ids.length; i += 1000) rows.push(...(await statuses(t, database, ids.slice(i, i + 1000), collection, key)));
      return rows.every((r) => TERMINAL.has(r.indexing_status)) ? rows : null;
    },
    timeoutMs,
    50,
  );
}

/**
 * Uploads the files (each with its own id) in one knowledge request, checks that all were
 * accepted, and waits until each is terminal; rows by id.
 */
export async function ingestFilesAndWait(
  t: TestApp,
  database: string,
  files: ReadonlyArray<{ id: string; name: string; content: string | Uint8Array; type: string }>,
  timeoutMs = 120_000,
): Promise<Map<string, StatusRow>> {
  const res = await ingestMultipart(
    t,
    { type: "knowledge", database, document_metadata: JSON.stringify(files.map((f) => ({ id: f.id }))) },
    files.map(({ name, content, type }) => ({ name, content, type })),
  );
  assert.equal(res.status, 202, res.text);
  assert.equal(field(res.body, "data.success_count"), files.length, res.text);
  const rows = await waitTerminal(
    t,
    database,
    files.map((f) => f.id),
    undefined,
    timeoutMs,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
