import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { makeDocx, makePdf } from "../helpers/make-files.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { cliEnv, runCli, runJson } from "./run-cli.js";

before(async () => {
  await ensureBuiltCli();
});

interface IngestReport {
  items: Array<{ file: string; id: string | null; type: string; status: string; error: { code: string; message: string } | null }>;
  counts: Record<string, number>;
  skipped: string[];
}

interface QueryData {
  chunks: Array<{ source_id: string; source_title: string; chunk_content: string; type: string }>;
  request_id: string;
}

test("ingest a folder of PDF, DOCX, Markdown, CSV and text plus a JSONL of memories; query, list, inspect, status, delete, feedback", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  await createReadyDatabase(app, "cli_docs");
  const dir = await mkdtemp(join(tmpdir(), "cli-ingest-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const docs = join(dir, "docs");
  await mkdir(join(docs, "deeper"), { recursive: true });
  await writeFile(join(docs, "turbines.pdf"), await makePdf([["Zephyr turbine maintenance schedule", "Blades are inspected every spring."]], "Turbines"));
  await writeFile(join(docs, "quarterly.docx"), await makeDocx());
  await writeFile(join(docs, "herons.md"), "# Herons\n\nThe grey heron migration passes the marshes in October.\n");
  await writeFile(join(docs, "fruit.csv"), "fruit,price\nquince,4\nmedlar,7\n");
  await writeFile(join(docs, "deeper", "lighthouse.txt"), "The lighthouse keeper logs the fog horn hours.\n");
  await writeFile(join(docs, ".hidden.md"), "# Hidden\n\nDotfiles are not ingested.\n");
  await writeFile(join(docs, "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  const memories = join(dir, "memories.jsonl");
  await writeFile(
    memories,
    [
      { id: "mem-colour", text: "Ada's favourite colour is teal.", infer: false },
      { id: "mem-tea", title: "drinks", text: "Ada drinks oolong tea every afternoon.", infer: false },
    ]
      .map((m) => JSON.stringify(m))
      .join("\n") + "\n",
  );
  const env = cliEnv({ url: app.baseUrl, key: app.key, database: "cli_docs" });

  const folder = await runJson<IngestReport>(t, ["ingest", docs], env);
  assert.deepEqual(folder.items.map((i) => [i.file.replace(/^.*docs\//, ""), i.type, i.status]).sort(), [
    ["deeper/lighthouse.txt", "knowledge", "completed"],
    ["fruit.csv", "knowledge", "completed"],
    ["herons.md", "knowledge", "completed"],
    ["quarterly.docx", "knowledge", "completed"],
    ["turbines.pdf", "knowledge", "completed"],
  ]);
  assert.deepEqual(
    folder.skipped.map((s) => s.replace(/^.*docs\//, "")),
    ["photo.png"],
    "unsupported types are skipped in a folder, dotfiles never seen",
  );
  const idOf = (name: string): string => {
    const id = folder.items.find((i) => i.file.endsWith(name))?.id;
    assert.ok(id, name);
    return id;
  };

  const mem = await runJson<IngestReport>(t, ["ingest", memories], env);
  assert.deepEqual(
    mem.items.map((i) => [i.file.replace(/^.*\//, ""), i.id, i.type, i.status]),
    [
      ["memories.jsonl#1", "mem-colour", "memory", "completed"],
      ["memories.jsonl#2", "mem-tea", "memory", "completed"],
    ],
  );

  // The same files again: the service answers duplicate, which is not a failure.
  const again = await runJson<IngestReport>(t, ["ingest", join(docs, "herons.md"), join(docs, "fruit.csv")], env);
  assert.deepEqual(
    again.items.map((i) => [i.status, i.id]),
    [
      ["duplicate", idOf("herons.md")],
      ["duplicate", idOf("fruit.csv")],
    ],
  );
  const againText = await runCli(t, ["ingest", join(docs, "herons.md")], env);
  assert.equal(againText.code, 0, againText.err);
  assert.match(againText.out, /1 duplicate/);
  assert.match(againText.out, new RegExp(`duplicate .*herons\\.md: already stored as ${idOf("herons.md")}`));

  for (const [text, file] of [
    ["Zephyr turbine maintenance", "turbines.pdf"],
    ["Europe led the growth", "quarterly.docx"],
    ["grey heron migration", "herons.md"],
    ["quince price", "fruit.csv"],
    ["lighthouse fog horn", "lighthouse.txt"],
  ] as const) {
    const found = await runJson<QueryData>(t, ["query", text, "--max-results", "3"], env);
    assert.equal(found.chunks[0]?.source_id, idOf(file), `query '${text}' ranks ${file} first`);
  }
  const teal = await runJson<QueryData>(t, ["query", "favourite colour", "--type", "memory"], env);
  assert.equal(teal.chunks[0]?.source_id, "mem-colour");
  assert.equal(teal.chunks[0]?.type, "memory");

  const readable = await runCli(t, ["query", "grey heron migration", "--max-results", "2"], env);
  assert.equal(readable.code, 0, readable.err);
  assert.match(readable.out, /^1\. \[\d\.\d{3}\] herons\.md/m);
  assert.match(readable.out, /grey heron migration passes the marshes/);
  assert.match(readable.out, /^sources:/m);
  const requestId = /request id: ([0-9a-f-]{36})/.exec(readable.out)?.[1];
  assert.ok(requestId, readable.out);
  const feedback = await runJson<{ recorded: boolean; request_id: string }>(
    t,
    ["feedback", requestId, "the heron note was right", "--rating", "positive", "--source-ids", idOf("herons.md")],
    env,
  );
  assert.deepEqual([feedback.recorded, feedback.request_id], [true, requestId]);

  const listed = await runJson<{ sources: Array<{ id: string }>; total: number }>(t, ["list"], env);
  assert.equal(listed.total, 5);
  assert.deepEqual(
    listed.sources.map((s) => s.id).sort(),
    ["deeper/lighthouse.txt", "fruit.csv", "herons.md", "quarterly.docx", "turbines.pdf"].map(idOf).sort(),
  );
  const paged = await runJson<{ sources: unknown[]; pagination: { has_next: boolean; total_pages: number } }>(
    t,
    ["list", "--page-size", "2", "--page", "3"],
    env,
  );
  assert.deepEqual([paged.sources.length, paged.pagination.total_pages, paged.pagination.has_next], [1, 3, false]);
  const memList = await runJson<{ user_memories: Array<{ memory_id: string }> }>(t, ["list", "--type", "memory"], env);
  assert.deepEqual(memList.user_memories.map((m) => m.memory_id).sort(), ["mem-colour", "mem-tea"]);
  const listText = await runCli(t, ["list", "--page-size", "2"], env);
  assert.match(listText.out, /page 1 of 3 \(5 item\(s\)\); next: --page 2/);

  const inspected = await runJson<{ id: string; content: string; indexing_status: string; chunk_count: number }>(t, ["inspect", idOf("herons.md")], env);
  assert.equal(inspected.indexing_status, "completed");
  assert.ok(inspected.chunk_count > 0);
  assert.match(inspected.content, /grey heron migration/);
  const inspectText = await runCli(t, ["inspect", "mem-tea", "--type", "memory"], env);
  assert.equal(inspectText.code, 0, inspectText.err);
  assert.match(inspectText.out, /oolong tea/);

  const statuses = await runJson<Array<{ id: string; indexing_status: string }>>(t, ["status", idOf("fruit.csv"), idOf("turbines.pdf")], env);
  assert.deepEqual(
    statuses.map((s) => [s.id, s.indexing_status]),
    [
      [idOf("fruit.csv"), "completed"],
      [idOf("turbines.pdf"), "completed"],
    ],
  );

  const deleted = await runJson<{ deleted_count: number }>(t, ["delete", idOf("fruit.csv")], env);
  assert.equal(deleted.deleted_count, 1);
  const afterDelete = await runJson<{ total: number; sources: Array<{ id: string }> }>(t, ["list"], env);
  assert.equal(afterDelete.total, 4);
  assert.ok(!afterDelete.sources.some((s) => s.id === idOf("fruit.csv")));
  const memDeleted = await runJson<{ deleted_count: number }>(t, ["delete", "mem-tea", "--type", "memory"], env);
  assert.equal(memDeleted.deleted_count, 1);
  const missing = await runCli(t, ["delete", "no-such-item"], env);
  assert.equal(missing.code, 1, "an id that was not deleted fails the command");
  assert.match(missing.err, /DELETE_INCOMPLETE/);
});
