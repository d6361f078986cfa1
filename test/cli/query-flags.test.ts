import assert from "node:assert/strict";
import { before, test } from "node:test";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { cliEnv, runCli, runJson } from "./run-cli.js";

before(async () => {
  await ensureBuiltCli();
});

interface QueryData {
  chunks: Array<{ source_id: string }>;
}

test("query's operator, acl, alpha, recency and forceful flags reach the service; out-of-range weights are usage errors", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  await createReadyDatabase(app, "cli_flags");
  const item = (id: string, text: string): Record<string, unknown> => ({ id, type: "note", title: id, content: { text } });
  const open = await app.request("POST", "/context/ingest", {
    body: {
      database: "cli_flags",
      type: "knowledge",
      app_knowledge: [
        item("pie-phrase", "Grandma keeps the red apple pie recipe in the blue tin."),
        item("pie-apart", "An apple orchard stands beside the red barn where pie is sold."),
      ],
    },
  });
  assert.equal(open.status, 202, open.text);
  const restricted = await app.request("POST", "/context/ingest", {
    body: {
      database: "cli_flags",
      type: "knowledge",
      acl: ["group:finance"],
      app_knowledge: [item("payroll", "Payroll apple dates are set by the finance team.")],
    },
  });
  assert.equal(restricted.status, 202, restricted.text);
  const done = await waitTerminal(app, "cli_flags", ["pie-phrase", "pie-apart", "payroll"]);
  assert.deepEqual(
    done.map((s) => s.indexing_status),
    ["completed", "completed", "completed"],
  );
  const env = cliEnv({ url: app.baseUrl, key: app.key, database: "cli_flags" });
  const ids = async (args: string[]): Promise<string[]> => (await runJson<QueryData>(t, ["query", ...args], env)).chunks.map((c) => c.source_id).sort();

  // Keywords: any of them (or), all of them (and), the words in this order (phrase).
  assert.deepEqual(await ids(["red apple pie", "--query-by", "text"]), ["payroll", "pie-apart", "pie-phrase"]);
  assert.deepEqual(await ids(["red apple pie", "--query-by", "text", "--operator", "and"]), ["pie-apart", "pie-phrase"]);
  assert.deepEqual(await ids(["red apple pie", "--query-by", "text", "--operator", "phrase"]), ["pie-phrase"]);

  // The caller's principals: an item with an acl is found only by a caller it names.
  assert.deepEqual(await ids(["payroll dates", "--query-by", "text", "--acl", "user:ada"]), []);
  assert.deepEqual(await ids(["payroll dates", "--query-by", "text", "--acl", "user:ada, group:finance"]), ["payroll"]);

  // Weights in range (and auto) are accepted with forceful relations; anything else never reaches the service.
  assert.ok((await ids(["apple pie recipe", "--alpha", "0.3", "--recency-bias", "1", "--forceful"])).includes("pie-phrase"));
  for (const [flag, value] of [
    ["--alpha", "1.5"],
    ["--alpha", "often"],
    ["--recency-bias", "-0.1"],
    ["--recency-bias", "auto"],
    ["--operator", "near"],
    ["--acl", " , "],
  ] as const) {
    const refused = await runCli(t, ["query", "apple", flag, value], env);
    assert.equal(refused.code, 2, `${flag} ${value}: ${refused.out} ${refused.err}`);
    assert.match(refused.err, new RegExp(flag));
  }
});
