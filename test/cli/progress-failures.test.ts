import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { cliEnv, runCli, runInTerminal, runJson } from "./run-cli.js";

before(async () => {
  await ensureBuiltCli();
});

interface IngestReport {
  items: Array<{ file: string; id: string | null; type: string; status: string; error: { code: string; message: string } | null }>;
  counts: Record<string, number>;
}

const ANSI = new RegExp(String.fromCharCode(27) + "\\[[0-9;?]*[A-Za-z]", "g");

test("ingest shows bars in a terminal and lines otherwise; failures are summarised with their codes and exit 1; app-item JSONL; --no-wait", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  await createReadyDatabase(app, "cli_fail");
  const dir = await mkdtemp(join(tmpdir(), "cli-progress-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const env = cliEnv({ url: app.baseUrl, key: app.key, database: "cli_fail" });
  await mkdir(join(dir, "pair"));
  await writeFile(join(dir, "pair", "one.md"), "# One\n\nThe first note is about otters.\n");
  await writeFile(join(dir, "pair", "two.md"), "# Two\n\nThe second note is about badgers.\n");

  const shown = await runInTerminal(t, ["ingest", join(dir, "pair")], env);
  assert.equal(shown.code, 0, shown.out);
  const screen = shown.out.replace(ANSI, "");
  assert.match(screen, /upload\s+\|[^|]*\| 100% \| 2\/2 items/, screen);
  assert.match(screen, /indexing \|[^|]*\| 100% \| 2\/2 items/, screen);
  assert.match(screen, /2 item\(s\): 2 completed/);

  // A glob (quoted, so the CLI expands it): the same two files, answered as duplicates.
  const globbed = await runJson<IngestReport>(t, ["ingest", join(dir, "pair", "*.md")], env);
  assert.deepEqual(
    globbed.items.map((i) => [i.file.replace(/^.*\//, ""), i.status]),
    [
      ["one.md", "duplicate"],
      ["two.md", "duplicate"],
    ],
  );
  const noMatch = await runCli(t, ["ingest", join(dir, "pair", "*.pdf")], env);
  assert.equal(noMatch.code, 2, "a glob matching nothing is a usage error");

  await writeFile(join(dir, "three.txt"), "The third note is about voles.\n");
  const lines = await runCli(t, ["ingest", join(dir, "three.txt")], env);
  assert.equal(lines.code, 0, lines.err);
  assert.match(lines.err, /^upload: 1 item\(s\)$/m);
  assert.match(lines.err, /^upload 1\/1: \/\S*\/three\.txt -> queued$/m);
  assert.match(lines.err, /^indexing 1\/1: \/\S*\/three\.txt -> completed$/m);
  assert.ok(!lines.err.includes("\u001b["), "no terminal codes when stderr is not a terminal");
  assert.match(lines.out, /^1 item\(s\): 1 completed$/m);

  await writeFile(
    join(dir, "tickets.jsonl"),
    [
      { id: "ticket-1", type: "ticket", content: { text: "Printer on floor two jams on glossy paper." } },
      { id: "ticket-2", type: "ticket", content: { text: "VPN drops every hour for the Lisbon office." } },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
  const tickets = await runJson<IngestReport>(t, ["ingest", join(dir, "tickets.jsonl")], env);
  assert.deepEqual(
    tickets.items.map((i) => [i.id, i.type, i.status]),
    [
      ["ticket-1", "knowledge", "completed"],
      ["ticket-2", "knowledge", "completed"],
    ],
  );
  const vpn = await runJson<{ chunks: Array<{ source_id: string }> }>(t, ["query", "VPN drops Lisbon"], env);
  assert.equal(vpn.chunks[0]?.source_id, "ticket-2");

  await writeFile(join(dir, "broken.pdf"), "%PDF-1.7\nthis is not really a PDF body\n");
  await writeFile(join(dir, "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
  await writeFile(join(dir, "fine.md"), "# Fine\n\nThis note about moles indexes well.\n");
  const bad = ["ingest", join(dir, "broken.pdf"), join(dir, "photo.png"), join(dir, "fine.md")];
  const failedJson = await runCli(t, [...bad, "--json"], env);
  assert.equal(failedJson.code, 1, failedJson.err);
  const report = JSON.parse(failedJson.out) as IngestReport;
  const byFile = new Map(report.items.map((i) => [i.file.replace(/^.*\//, ""), i]));
  assert.equal(byFile.get("fine.md")?.status, "completed");
  assert.equal(byFile.get("photo.png")?.status, "failed", "refused at upload");
  assert.equal(byFile.get("photo.png")?.error?.code, "INVALID_FILE_FORMAT");
  assert.equal(byFile.get("broken.pdf")?.status, "errored", "accepted, then failed while indexing");
  assert.match(byFile.get("broken.pdf")?.error?.code ?? "", /^[A-Z_]+$/);
  assert.deepEqual([report.counts.completed, report.counts.failed, report.counts.errored], [1, 1, 1]);
  assert.match(failedJson.err, /INGEST_INCOMPLETE/);

  const failedText = await runCli(t, bad, env);
  assert.equal(failedText.code, 1);
  assert.match(failedText.out, /^3 item\(s\): 1 duplicate, 1 failed, 1 errored$/m, "fine.md is stored already: a duplicate, not a failure");
  assert.match(failedText.out, new RegExp(`^duplicate /\\S*/fine\\.md: already stored as ${byFile.get("fine.md")?.id ?? "?"}$`, "m"));
  // Refused at upload: no item, so no id, and the supported types named.
  assert.match(failedText.out, /^failed \/\S*\/photo\.png: INVALID_FILE_FORMAT: .*supported: PDF, DOCX/m);
  assert.match(failedText.out, new RegExp(`^errored /\\S*/broken\\.pdf \\(.+\\): ${byFile.get("broken.pdf")?.error?.code ?? "?"}: `, "m"));
  assert.match(failedText.err, /context-store: INGEST_INCOMPLETE: 2 of 3 item\(s\)/);

  await writeFile(join(dir, "later.md"), "# Later\n\nIndexed after the command returned.\n");
  const noWait = await runJson<IngestReport>(t, ["ingest", join(dir, "later.md"), "--no-wait"], env);
  assert.deepEqual(
    noWait.items.map((i) => i.status),
    ["queued"],
  );
});

test("wrong key: UNAUTHORIZED and exit 1; missing key or database: exit 2; unknown database: DATABASE_NOT_FOUND; databases create, list, status, delete", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const dir = await mkdtemp(join(tmpdir(), "cli-auth-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, "a.md"), "# A\n\ntext\n");

  const wrong = cliEnv({ url: app.baseUrl, key: "csk_wrong", database: "cli_db" });
  for (const args of [["list"], ["ingest", join(dir, "a.md")], ["databases"]]) {
    const res = await runCli(t, args, wrong);
    assert.equal(res.code, 1, args.join(" "));
    assert.match(res.err, /^context-store: UNAUTHORIZED: /, args.join(" "));
  }
  const wrongJson = await runCli(t, ["list", "--json"], wrong);
  assert.equal(wrongJson.code, 1);
  assert.equal((JSON.parse(wrongJson.err) as { error: { code: string } }).error.code, "UNAUTHORIZED");

  const noKey = await runCli(t, ["query", "anything"], cliEnv({ url: app.baseUrl, database: "cli_db" }));
  assert.equal(noKey.code, 2);
  assert.match(noKey.err, /no API key/);
  const noDatabase = await runCli(t, ["list"], cliEnv({ url: app.baseUrl, key: app.key }));
  assert.equal(noDatabase.code, 2);
  assert.match(noDatabase.err, /no database/);
  const badFlag = await runCli(t, ["query", "x", "--mode", "slow"], cliEnv({ url: app.baseUrl, key: app.key, database: "cli_db" }));
  assert.equal(badFlag.code, 2);

  const env = cliEnv({ url: app.baseUrl, key: app.key });
  const unknown = await runCli(t, ["ingest", join(dir, "a.md"), "--database", "cli_nope"], env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /DATABASE_NOT_FOUND/);

  const created = await runJson<{ database: string; infra: { ready_for_ingestion: boolean } }>(t, ["databases", "create", "cli_db", "--wait"], env);
  assert.deepEqual([created.database, created.infra.ready_for_ingestion], ["cli_db", true]);
  const again = await runCli(t, ["databases", "create", "cli_db"], env);
  assert.equal(again.code, 1);
  assert.match(again.err, /DATABASE_ALREADY_EXISTS/);
  const listed = await runJson<Array<{ database: string }>>(t, ["databases"], env);
  assert.deepEqual(
    listed.map((d) => d.database),
    ["cli_db"],
  );
  assert.deepEqual(
    (await runJson<Array<{ database: string }>>(t, ["databases", "list"], env)).map((d) => d.database),
    ["cli_db"],
  );
  const status = await runJson<{ database: string; infra: { ready_for_ingestion: boolean } }>(t, ["databases", "status", "cli_db"], env);
  assert.equal(status.infra.ready_for_ingestion, true);
  const statusText = await runCli(t, ["databases", "status", "cli_db"], env);
  assert.match(statusText.out, /ready_for_ingestion=true/);
  const ingested = await runJson<{ items: Array<{ status: string }> }>(t, ["ingest", join(dir, "a.md"), "--database", "cli_db"], env);
  assert.deepEqual(
    ingested.items.map((i) => i.status),
    ["completed"],
  );
  const deleted = await runJson<{ database: string }>(t, ["databases", "delete", "cli_db"], env);
  assert.equal(deleted.database, "cli_db");
  const gone = await runCli(t, ["list", "--database", "cli_db"], env);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /DATABASE_NOT_FOUND/);
});
