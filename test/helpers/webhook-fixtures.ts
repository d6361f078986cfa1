import { randomUUID } from "node:crypto";
import { after, before } from "node:test";
import type { Application } from "../../src/app.js";
import type { IndexingStatusChange } from "../../src/features/webhooks/outbox.js";
import { eventually, type TestApp } from "./harness.js";
import { createTestDb, type TestDb } from "./test-db.js";
import { startReceiver, type Receiver, type ReceiverOptions } from "./webhook-receiver.js";

/** Development flag on, and retries fast enough for tests (configuration, not mocks). */
export const FAST_RETRIES: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_RETRY_BASE_MS: "40",
  WEBHOOK_RETRY_MAX_MS: "200",
};

/** A terminal status change through the real outbox, in a real store transaction. */
export function changeStatus(
  app: Application,
  change: Omit<IndexingStatusChange, "database" | "collection"> & Partial<IndexingStatusChange>,
): Promise<string | null> {
  return app.store.transaction((tx) => app.outbox.recordStatusChange(tx, { database: "docs", collection: "docs", ...change }));
}

/** Polls the delivery record over HTTP until `until` holds. */
export function deliveryWhen(
  t: TestApp,
  id: string,
  until: (record: Record<string, unknown>) => boolean,
  key?: string,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const record = (await t.request("GET", `/webhooks/indexing/deliveries/${id}`, { key })).body;
    return until(record) ? record : null;
  }, timeoutMs);
}

export const finished = (r: Record<string, unknown>): boolean => r.status !== "pending";

/** A query of this organization in the query log, as POST /query records it, written to the store (other processes see it). */
export async function loggedQuery(t: TestApp, orgId = t.orgId): Promise<string> {
  const requestId = randomUUID();
  t.app.queryLog.record({ orgId, requestId });
  await t.app.queryLog.flush();
  return requestId;
}

/** One store shared by several app instances of a test, and a receiver; set up in before(). */
export function sharedStoreAndReceiver(options: ReceiverOptions = {}): { readonly db: TestDb; readonly receiver: Receiver } {
  let db: TestDb | null = null;
  let receiver: Receiver | null = null;
  before(async () => {
    db = await createTestDb({ migrated: true });
    receiver = await startReceiver(options);
  });
  after(async () => {
    await receiver?.close();
    await db?.drop();
  });
  return {
    get db(): TestDb {
      if (!db) throw new Error("used before setup");
      return db;
    },
    get receiver(): Receiver {
      if (!receiver) throw new Error("used before setup");
      return receiver;
    },
  };
}
