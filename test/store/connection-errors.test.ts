import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import pg from "pg";
import { isStoreUnavailable } from "../../src/platform/store/errors.js";
import { eventually } from "../helpers/harness.js";

/**
 * Just enough of a PostgreSQL server for node-postgres to connect (trust authentication, then
 * ready for query), whose connections the test can reset: a server going away under a client.
 */
async function startVanishingServer(): Promise<{ url: string; reset(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined); // the reset below is the point, not a failure
    socket.once("data", () => {
      const authenticationOk = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
      const readyForQuery = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
      socket.write(Buffer.concat([authenticationOk, readyForQuery]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/contextstore`,
    reset: () => {
      for (const s of sockets) s.resetAndDestroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The errors node-postgres gives when PostgreSQL goes away under a connection the service holds
 * are temporary (503 SERVICE_UNAVAILABLE), not bugs (500). The fault suite met the second one
 * answered 500 while its private PostgreSQL was stopped: a pooled client broke between two
 * statements of a request, and the next statement failed with no code, only a message.
 */
test("PostgreSQL gone under a held connection: the driver's errors are recognised as the store being unavailable", async (t) => {
  const server = await startVanishingServer();
  t.after(() => server.close());
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const events: Array<Error & { code?: string }> = [];
  client.on("error", (err: Error) => events.push(err));
  server.reset();
  await eventually(async () => events.length > 0, 10_000);
  for (const e of events) assert.equal(isStoreUnavailable(e), true, `${e.code ?? ""} ${e.message}`);

  const notQueryable = (await client.query("SELECT 1").then(
    () => assert.fail("a query on a broken connection succeeded"),
    (err: unknown) => err,
  )) as Error & { code?: string };
  assert.match(notQueryable.message, /not queryable/);
  assert.equal(notQueryable.code, undefined, "no code to recognise it by");
  assert.equal(isStoreUnavailable(notQueryable), true);
  await client.end().catch(() => undefined); // already broken: nothing to close
});
