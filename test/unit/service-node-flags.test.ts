import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { SERVICE_NODE_FLAGS } from "../../bench/service-node-flags.js";

const scripts = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> }).scripts;

test("npm start, and the benchmarks that run the service in their own process, pass the service's V8 flags", () => {
  assert.ok(SERVICE_NODE_FLAGS.length > 0);
  for (const name of ["start", "bench:ingest", "bench:retrieval", "bench:query"]) {
    const words = (scripts[name] ?? "").split(/\s+/);
    for (const flag of SERVICE_NODE_FLAGS) assert.ok(words.includes(flag), `${name} (${scripts[name]}) lacks ${flag}`);
  }
});
