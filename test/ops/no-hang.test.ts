import assert from "node:assert/strict";
import { once } from "node:events";
import { test } from "node:test";
import { spawnOwned } from "../helpers/child-process.js";
import { eventually } from "../helpers/harness.js";

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process, which is what this asks.
    return false;
  }
};

test("a test that times out takes the process it spawned along: the child is killed and the file exits", { timeout: 60_000 }, async (t) => {
  const run = spawnOwned(
    t,
    process.execPath,
    ["--import", "tsx", "--test", "--test-force-exit", "--test-reporter=tap", "test/fixtures/hanging-child.fixture.ts"],
    {
      // A runner of its own, not a subtest of this one.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  run.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  const [code] = (await once(run, "exit")) as [number | null];
  assert.notEqual(code, 0, "the hanging test failed");
  assert.match(out, /timed out|cancelled|timeout/i);
  const pid = Number(/child-pid (\d+)/.exec(out)?.[1]);
  assert.ok(pid > 0, out);
  // SIGKILLed as the file ended; it is gone once the system has reaped it.
  await eventually(async () => !alive(pid), 5_000);
});
