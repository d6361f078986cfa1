import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

/** The commands of README.md's quickstart block: continuation lines joined, comments and blanks dropped. */
function quickstartCommands(): string[] {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("\n## Quickstart"));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "README.md has a ```bash block under ## Quickstart");
  return block
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith("#"));
}

type Json = Record<string, unknown> & {
  data?: Record<string, unknown> & { results?: Array<Record<string, unknown>>; chunks?: Array<{ chunk_content: string }> };
};

// What each step of the quickstart must answer, found by what the command does. Every check must be used.
const CHECKS: Array<{ step: RegExp; check: (out: string) => void }> = [
  { step: /^export KEY=/, check: (out) => assert.equal(out, "") },
  { step: /-X POST \S+\/databases /, check: (out) => assert.equal((JSON.parse(out) as Json).data?.database, "quickstart") },
  { step: /^until .*ready_for_ingestion/, check: (out) => assert.equal(out, "") },
  { step: /^printf .*> handbook\.md$/, check: (out) => assert.equal(out, "") },
  {
    step: /-F files=@handbook\.md/,
    check: (out) => assert.deepEqual((JSON.parse(out) as Json).data?.results, [{ id: "handbook", status: "queued", file_name: "handbook.md" }]),
  },
  {
    step: /"type": "memory", "database": "quickstart", "memories"/,
    check: (out) => assert.deepEqual((JSON.parse(out) as Json).data?.results, [{ id: "tea", status: "queued", infer: false }]),
  },
  { step: /^until .*indexing_status/, check: (out) => assert.equal(out, "") },
  { step: /When does the office open/, check: (out) => assert.match((JSON.parse(out) as Json).data?.chunks?.[0]?.chunk_content ?? "", /opens at 8 am/) },
  {
    step: /What does Alice drink/,
    check: (out) =>
      assert.ok(
        (JSON.parse(out) as Json).data?.chunks?.some((c) => c.chunk_content.includes("green tea")),
        out,
      ),
  },
  {
    step: /\/context\/inspect\?/,
    check: (out) => {
      const data = (JSON.parse(out) as Json).data ?? {};
      assert.equal(data.id, "handbook");
      assert.match(String(data.content), /Bikes are parked in the basement/);
      assert.ok(typeof data.presigned_url === "string" && data.presigned_url.length > 0, "a download URL for the file");
    },
  },
  {
    step: /\/context\/handbook\/subgraph\?/,
    check: (out) => {
      const body = JSON.parse(out) as Json;
      assert.equal(body.success, true, out);
      assert.match(JSON.stringify(body.data), /"handbook"/);
    },
  },
];

test("README quickstart: pasted line by line against a freshly started server, every step answers as shown", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const cwd = mkdtempSync(join(tmpdir(), "cs-quickstart-"));
  t.after(() => rmSync(cwd, { recursive: true, force: true }));
  const server = await startServerProcess(t, db);
  // The user copies the key line the first start printed.
  const key = (await eventually(async () => /export KEY=(csk_[A-Za-z0-9_-]+)/.exec(server.stdout()), 10_000, 50))[1]!;

  const commands = quickstartCommands();
  const used = new Set<number>();
  for (const command of commands) {
    const index = CHECKS.findIndex((c, i) => !used.has(i) && c.step.test(command));
    assert.ok(index >= 0, `no expectation for the quickstart step: ${command}`);
    used.add(index);
    // The user's shell: the key exported (the line they filled in), the port the server listens on.
    const filled = command.replace(/^export KEY=\S+/, `export KEY=${key}`).replaceAll("http://127.0.0.1:8080", server.baseUrl);
    const run = spawnSync("bash", ["-c", filled], { cwd, env: { ...process.env, KEY: key }, encoding: "utf8", timeout: 180_000, killSignal: "SIGKILL" });
    assert.equal(run.status, 0, `${command}\n${run.stderr}`);
    CHECKS[index]!.check(run.stdout.trim());
  }
  assert.equal(used.size, CHECKS.length, "every step of the quickstart ran");
  await server.stop();
});
