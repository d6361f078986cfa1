import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import * as tar from "tar";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { utf8 } from "../helpers/make-files.js";
import { backendUnderTest, createTestDb, type TestDb } from "../helpers/test-db.js";
import { openStore } from "../../src/platform/store/db.js";
import { newId } from "../../src/platform/util/ids.js";
import { DATABASE_TABLES } from "../../src/features/portability/table-plan.js";
import { cliJson, runCli, storeEnv } from "./portability-fixtures.js";

type Row = Record<string, unknown>;

/** Every file under a folder, relative to it (the SQLite store's own files left out). */
function filesUnder(root: string, at = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(at, { withFileTypes: true })) {
    const path = join(at, entry.name);
    if (entry.isDirectory()) out.push(`${relative(root, path)}/`, ...filesUnder(root, path));
    else if (!entry.name.startsWith("context-store.sqlite")) out.push(relative(root, path));
  }
  return out.sort();
}

describe(`hostile archives are refused before anything is written (${backendUnderTest()})`, () => {
  const work = mkdtempSync(join(tmpdir(), "cs-hostile-"));
  // Where a path-traversing id would land: outside DATA_DIR, watched for any file.
  const sentinel = mkdtempSync(join(tmpdir(), "cs-sentinel-"));
  const genuine = join(work, "kb.tar.gz");
  let sourceDb: TestDb;
  let targetDb: TestDb;
  let archiveDatabase: string;
  let target: { orgId: string; databaseId: string };

  /** What the target holds: row counts of every database table, and DATA_DIR's files. */
  async function snapshot(): Promise<{ counts: Record<string, number>; files: string[] }> {
    const store = openStore({ dataDir: targetDb.dataDir, databaseUrl: targetDb.databaseUrl, poolSize: 1 });
    try {
      const counts: Record<string, number> = {};
      for (const { table } of [...DATABASE_TABLES, { table: "organizations" }, { table: "api_keys" }, { table: "jobs" }]) {
        const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(store.db);
        counts[table] = Number(rows[0]?.n);
      }
      return { counts, files: filesUnder(targetDb.dataDir) };
    } finally {
      await store.close();
    }
  }

  /** The genuine archive with `edit` applied to its unpacked files, packed again. */
  async function craft(name: string, edit: (dir: string) => void): Promise<string> {
    const dir = mkdtempSync(join(work, "unpacked-"));
    await tar.x({ file: genuine, cwd: dir });
    edit(dir);
    const file = join(work, `${name}.tar.gz`);
    await tar.c({ gzip: true, file, cwd: dir, portable: true }, ["manifest.json", "tables"]);
    return file;
  }

  /** Changes the `index`th row of a table file. */
  const editRow =
    (table: string, change: (row: Row) => void, index = 0) =>
    (dir: string): void => {
      const file = join(dir, "tables", `${table}.jsonl`);
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      const row = JSON.parse(lines[index] ?? "null") as Row;
      change(row);
      lines[index] = JSON.stringify(row);
      writeFileSync(file, `${lines.join("\n")}\n`);
    };
  const both =
    (...edits: Array<(dir: string) => void>) =>
    (dir: string): void => {
      for (const edit of edits) edit(dir);
    };

  before(async () => {
    const source = await startTestApp();
    sourceDb = source.db;
    await createReadyDatabase(source, "kb");
    const files = await ingestMultipart(source, { type: "knowledge", database: "kb" }, [
      { name: "notes.md", content: utf8("# Notes\n\nThe quarterly report is due on Friday.\n"), type: "text/markdown" },
    ]);
    assert.equal(files.status, 202, files.text);
    const app = [{ id: "memo", type: "memo", title: "Memo", content: { text: "The office closes early on Friday." } }];
    assert.equal(
      (await source.request("POST", "/context/ingest", { body: { type: "knowledge", database: "kb", app_knowledge: JSON.stringify(app) } })).status,
      202,
    );
    await waitTerminal(source, "kb", [...field<Array<{ id: string }>>(files.body, "data.results").map((r) => r.id), "memo"]);
    const exported = await cliJson<{ manifest: { database: { id: string } } }>(["export", "--database", "kb", "--out", genuine], storeEnv(source.db));
    archiveDatabase = exported.manifest.database.id;
    await source.close();

    // The target has an organization with a database of its own; the operator imports with the service stopped.
    targetDb = await createTestDb();
    const t = await startTestApp({}, targetDb);
    await createReadyDatabase(t, "mine");
    const mine = await t.app.store.db.selectFrom("databases").select("id").where("name", "=", "mine").executeTakeFirstOrThrow();
    target = { orgId: t.orgId, databaseId: mine.id };
    await t.close();
    // A file of the target's that no clean-up may touch.
    mkdirSync(join(targetDb.dataDir, "blobs"), { recursive: true });
    writeFileSync(join(targetDb.dataDir, "blobs", "keep.txt"), "the operator's");
  });
  after(async () => {
    await targetDb?.drop();
    await sourceDb?.drop();
    rmSync(work, { recursive: true, force: true });
    rmSync(sentinel, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; edit: () => (dir: string) => void; refusal: RegExp }> = [
    {
      name: "a file id that climbs out of the blobs folder",
      edit: () => {
        const climb = relative(join(targetDb.dataDir, "blobs", archiveDatabase), join(sentinel, "PWNED.txt"));
        return both(
          editRow("blobs", (r) => (r.id = climb)),
          editRow("context_items", (r) => (r.blob_id = r.blob_id === null ? null : climb)),
        );
      },
      refusal: /the archive's blobs row 1 has id "[./]+.*PWNED.txt", which is not an id this service generates/,
    },
    {
      name: "an absolute path as a file id",
      edit: () => editRow("blobs", (r) => (r.id = join(sentinel, "PWNED.txt"))),
      refusal: /the archive's blobs row 1 has id "\/.*PWNED.txt", which is not an id/,
    },
    {
      name: "an item id of another form",
      edit: () => editRow("context_items", (r) => (r.id = "ITEM-1")),
      refusal: /the archive's context_items row 1 has id "ITEM-1", which is not an id this service generates/,
    },
    {
      name: "a row of another database (the target's own)",
      edit: () => editRow("context_items", (r) => (r.database_id = target.databaseId)),
      refusal: /the archive's context_items row 1 belongs to database "[0-9a-f-]+", not to the archive's/,
    },
    {
      name: "a row of another organization (the target's)",
      edit: () => editRow("context_chunks", (r) => (r.org_id = target.orgId)),
      refusal: /the archive's context_chunks row 1 belongs to organization/,
    },
    {
      name: "a chunk of an item the archive does not hold",
      edit: () => editRow("context_chunks", (r) => (r.item_id = newId())),
      refusal: /the archive's context_chunks row 1 refers to item [0-9a-f-]+ \(item_id\), which the archive does not hold/,
    },
    {
      name: "a manifest naming a database id that is a path",
      edit: () => (dir: string) => {
        const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { database: { id: string } };
        manifest.database.id = `../${sentinel}`;
        writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
      },
      refusal: /the archive's manifest names a database or organization id this service does not generate/,
    },
    {
      name: "a column the table does not have",
      edit: () => editRow("context_items", (r) => (r.evil = "x")),
      refusal: /the archive's context_items row 1 has a column "evil" the table does not have/,
    },
    {
      name: "text in a number column",
      edit: () => editRow("context_chunks", (r) => (r.position = "first")),
      refusal: /the archive's context_chunks row 1 position must be a whole number/,
    },
    {
      name: "a vector shorter than its dimensions",
      edit: () => editRow("context_vectors", (r) => (r.embedding = Buffer.alloc(8).toString("base64"))),
      refusal: /the archive's context_vectors row 1 embedding holds 8 bytes, not the \d+ of \d+ dimensions/,
    },
    {
      name: "a table file that is a link to a file elsewhere",
      edit: () => (dir: string) => {
        const file = join(dir, "tables", "context_items.jsonl");
        writeFileSync(join(sentinel, "outside.jsonl"), readFileSync(file));
        rmSync(file);
        symlinkSync(join(sentinel, "outside.jsonl"), file);
      },
      refusal: /the archive's context_items rows cannot be read/,
    },
    {
      // Found only while writing, after the files were: the clean-up removes what the import made, and only that.
      name: "a vector of a chunk the archive does not hold",
      edit: () => editRow("context_vectors", (r) => (r.chunk_key = 999_999)),
      refusal: /a vector refers to chunk key 999999, which the source does not hold/,
    },
  ];

  for (const c of cases) {
    test(`refused: ${c.name}; the store is unchanged and nothing is written outside DATA_DIR`, async () => {
      const file = await craft(c.name.replace(/\W+/g, "-"), c.edit());
      const sentinelBefore = filesUnder(sentinel);
      const before_ = await snapshot();
      const run = await runCli(["import", "--in", file, "--org", target.orgId, "--as", "copy"], storeEnv(targetDb));
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, c.refusal);
      assert.match(run.stderr, /INVALID_INPUT/);
      assert.deepEqual(filesUnder(sentinel), sentinelBefore, "nothing written outside DATA_DIR");
      assert.deepEqual(await snapshot(), before_, "the store is unchanged");
    });
  }

  test("the genuine archive imports (the refusals are the edits'), its file under the new database's folder", async () => {
    const imported = await cliJson<{ database: { id: string } }>(["import", "--in", genuine, "--org", target.orgId, "--as", "copy"], storeEnv(targetDb));
    assert.notEqual(imported.database.id, archiveDatabase);
    if (backendUnderTest() === "sqlite") assert.equal(readdirSync(join(targetDb.dataDir, "blobs", imported.database.id)).length, 1);
    assert.deepEqual(filesUnder(sentinel), ["outside.jsonl"]);
  });
});
