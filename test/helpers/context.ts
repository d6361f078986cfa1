import { field, type HttpResult, type TestApp } from "./harness.js";
import { ingestMultipart, waitTerminal } from "./ingest.js";

/** Ingests app items through POST /context/ingest (JSON body) and waits until all are terminal. */
export async function ingestApp(t: TestApp, database: string, items: unknown[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database, app_knowledge: JSON.stringify(items), ...extra } });
  if (res.status !== 202) throw new Error(`ingest failed: ${res.status} ${res.text}`);
  const ids = field<Array<{ id: string; status: string }>>(res.body, "data.results").map((r) => r.id);
  const rows = await waitTerminal(t, database, ids, typeof extra.collection === "string" ? extra.collection : undefined);
  const bad = rows.filter((r) => r.indexing_status !== "completed");
  if (bad.length > 0) throw new Error(`not completed: ${JSON.stringify(bad)}`);
  return ids;
}

/** Ingests memories (multipart, as the SDK does) and waits until all are terminal. */
export async function ingestMemories(t: TestApp, database: string, memories: unknown[], collection?: string): Promise<string[]> {
  const res = await ingestMultipart(t, { type: "memory", database, memories: JSON.stringify(memories), ...(collection ? { collection } : {}) });
  if (res.status !== 202) throw new Error(`ingest failed: ${res.status} ${res.text}`);
  const ids = field<Array<{ id: string }>>(res.body, "data.results").map((r) => r.id);
  await waitTerminal(t, database, ids, collection);
  return ids;
}

export function listContext(t: TestApp, body: Record<string, unknown>): Promise<HttpResult> {
  return t.request("POST", "/context/list", { body });
}

/** The ids of `data.sources` (knowledge) of a list response, sorted. */
export function sourceIds(res: HttpResult): string[] {
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return field<Array<{ id: string }>>(res.body, "data.sources")
    .map((s) => s.id)
    .sort();
}
