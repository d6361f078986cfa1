import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as tar from "tar";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { appEnv, canonicalIds, cliJson, chunkAndEntityIdsIn, observe, populate, runCli, storeEnv } from "./portability-fixtures.js";

describe("export, then import into a fresh store", () => {
  let slack: FakeSlack;
  let source: TestApp;
  let target: TestApp;
  let targetDb: TestDb;
  let before_: Record<string, unknown>;
  let connectorId: string;
  const dir = mkdtempSync(join(tmpdir(), "cs-archives-"));
  const kbArchive = join(dir, "kb.tar.gz");
  const graphArchive = join(dir, "g.tar.gz");
  let imported: {
    webhook: { registered: boolean; new_signing_secret: string | null };
    requeued: number;
    counts: Record<string, number>;
    connector_ids: Record<string, string>;
  };

  before(async () => {
    slack = await FakeSlack.start({ token: SLACK_TOKEN });
    source = await startTestApp(appEnv(slack));
    ({ connectorId } = await populate(source, slack));
    before_ = await observe(source, source.key);
    // Exported while the source keeps running: the archive is one snapshot.
    await cliJson(["export", "--database", "kb", "--out", kbArchive], storeEnv(source.db));
    await cliJson(["export", "--database", "g", "--org", source.orgId, "--out", graphArchive], storeEnv(source.db));
    targetDb = await createTestDb();
    target = await startTestApp(appEnv(slack), targetDb);
    imported = await cliJson(["import", "--in", kbArchive, "--org", target.orgId], storeEnv(targetDb));
    await cliJson(["import", "--in", graphArchive, "--org", target.orgId], storeEnv(targetDb));
  });
  after(async () => {
    await target?.close();
    await targetDb?.drop();
    await source?.close();
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the target answers queries, lists, the subgraph, Cypher and file downloads as the source did, with new ids", async () => {
    const after_ = await observe(target, target.key);
    for (const name of Object.keys(before_))
      assert.deepEqual(canonicalIds(after_[name]), canonicalIds(before_[name]), `${name} differs after export and import`);
    const [old, now] = [chunkAndEntityIdsIn(before_), chunkAndEntityIdsIn(after_)];
    assert.ok(old.size > 5 && now.size === old.size, `${old.size} chunk and entity ids before, ${now.size} after`);
    assert.deepEqual(
      [...now].filter((id) => old.has(id)),
      [],
      "no chunk or entity id of the source is reused",
    );
    assert.ok(imported.counts.context_vectors && imported.counts.context_vectors > 0, JSON.stringify(imported.counts));
    assert.equal(imported.requeued, 0, "every item was indexed at export");
  });

  test("the connector arrives paused, needing new credentials; the webhook with a new signing secret", async () => {
    const newId = imported.connector_ids[connectorId];
    assert.ok(newId !== undefined && newId !== connectorId, JSON.stringify(imported.connector_ids));
    const c = await target.request("GET", `/connectors/${newId}`);
    assert.equal(c.status, 200, c.text);
    assert.equal(c.body.needs_reauth, true);
    assert.equal(c.body.paused, true);
    assert.equal(imported.webhook.registered, true);
    assert.match(imported.webhook.new_signing_secret ?? "", /^whsec_/);
    const hook = await target.request("GET", "/webhooks/indexing");
    assert.equal(hook.status, 200, hook.text);
    assert.equal(hook.body.url, "http://127.0.0.1:9/hooks/indexing");
    const archive = await runCli(["export", "--database", "kb", "--out", join(dir, "again.tar.gz")], storeEnv(targetDb));
    assert.equal(archive.code, 0, archive.stderr);
  });

  test("refusals leave the target unchanged: existing database, corrupt archive, other format version", async () => {
    const databases = async () => field<unknown[]>((await target.request("GET", "/databases")).body, "data.databases");
    const total = async () => field<number>((await target.request("POST", "/context/list", { body: { database: "kb", page_size: 1 } })).body, "data.total");
    const [dbsBefore, totalBefore] = [await databases(), await total()];

    const again = await runCli(["import", "--in", kbArchive, "--org", target.orgId], storeEnv(targetDb));
    assert.equal(again.code, 2);
    assert.match(again.stderr, /DATABASE_ALREADY_EXISTS: database kb already exists/);

    const corrupt = join(dir, "corrupt.tar.gz");
    writeFileSync(corrupt, Buffer.from("this is not a gzip'd tar at all"));
    const broken = await runCli(["import", "--in", corrupt, "--org", target.orgId, "--as", "kb3"], storeEnv(targetDb));
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /INVALID_INPUT: cannot unpack/);

    const unpacked = mkdtempSync(join(tmpdir(), "cs-repack-"));
    await tar.x({ file: kbArchive, cwd: unpacked });
    writeFileSync(join(unpacked, "manifest.json"), JSON.stringify({ format: "context-store-archive", format_version: 99 }));
    const future = join(dir, "future.tar.gz");
    await tar.c({ gzip: true, file: future, cwd: unpacked }, ["manifest.json", "tables"]);
    rmSync(unpacked, { recursive: true, force: true });
    const newer = await runCli(["import", "--in", future, "--org", target.orgId, "--as", "kb4"], storeEnv(targetDb));
    assert.equal(newer.code, 2);
    assert.match(newer.stderr, /archive format version 99 is not supported/);

    assert.deepEqual(await databases(), dbsBefore);
    assert.equal(await total(), totalBefore);
  });
});
