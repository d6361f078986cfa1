import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { isStoreUnavailable } from "../../src/platform/store/errors.js";
import { eventually } from "../helpers/harness.js";
import { startPrivatePostgres } from "../helpers/private-postgres.js";

/**
 * The errors node-postgres gives when PostgreSQL goes away under a connection the service holds
 * are temporary (503 SERVICE_UNAVAILABLE), not bugs (500). The fault suite met the second one
 * answered 500 while its private PostgreSQL was stopped: a pooled client broke between two
 * statements of a request and the next statement got an error with no code.
 */
test("PostgreSQL stopped under a held connection: the driver's errors are recognised as the store being unavailable", { timeout: 120_000 }, async (t) => {
  const cluster = await startPrivatePostgres();
  t.after(() => cluster.destroy());
  const url = cluster.db.databaseUrl ?? "";
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  assert.equal((await client.query<{ one: number }>("SELECT 1 AS one")).rows[0]?.one, 1);
  // The driver reports the break as 'error' events (the server's 57P01, then the socket's end).
  const events: Array<Error & { code?: string }> = [];
  client.on("error", (err: Error) => events.push(err));
  await cluster.stop();
  await eventually(async () => events.length > 0, 10_000);
  for (const e of events) assert.equal(isStoreUnavailable(e), true, `${e.code ?? ""} ${e.message}`);
  const notQueryable = (await client.query("SELECT 1").then(
    () => assert.fail("a query on a broken connection succeeded"),
    (err: unknown) => err,
  )) as Error;
  assert.match(notQueryable.message, /not queryable/);
  assert.equal(isStoreUnavailable(notQueryable), true);

  const fresh = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  const refused = (await fresh.connect().then(
    () => assert.fail("connected to a stopped server"),
    (err: unknown) => err,
  )) as Error & { code?: string };
  assert.equal(isStoreUnavailable(refused), true, `${refused.code ?? ""} ${refused.message}`);
  await client.end().catch(() => undefined); // already broken: nothing to close
});
