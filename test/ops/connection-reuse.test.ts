import assert from "node:assert/strict";
import { Agent, request } from "node:http";
import { after, before, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";

let t: TestApp;
before(async () => {
  t = await startTestApp({ HTTP_MAX_REQUESTS_PER_CONNECTION: "3" });
});
after(async () => t.close());

/** GET /healthz on the agent's pooled connection: the status, its Connection header and the local port (which socket). */
function get(agent: Agent): Promise<{ status: number; connection: string | undefined; localPort: number | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.baseUrl}/healthz`, { agent }, (res) => {
      const localPort = res.socket.localPort;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, localPort }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("a keep-alive connection carries HTTP_MAX_REQUESTS_PER_CONNECTION requests, the last marked Connection: close; the client's next request opens another", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(agent));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200],
    );
    assert.deepEqual(
      answers.map((a) => a.connection),
      ["keep-alive", "keep-alive", "close", "keep-alive"],
    );
    // The first three share one socket; the fourth came on a new one (the cluster hands it to the next process).
    assert.equal(new Set(answers.slice(0, 3).map((a) => a.localPort)).size, 1);
    assert.notEqual(answers[3]!.localPort, answers[0]!.localPort);
  } finally {
    agent.destroy();
  }
});
