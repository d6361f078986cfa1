import { FakeSlack } from "./fake-providers/slack.js";
import { createReadyDatabase, eventually, field, startTestApp, type HttpResult, type TestApp } from "./harness.js";
import { ingestMultipart, waitTerminal } from "./ingest.js";
import { startReceiver, type Receiver } from "./webhook-receiver.js";

/** A word stored in every object of the populated organization: a body holding it has leaked that organization's data. */
export const MARKER = "quokkamarker7x";

const SLACK_TOKEN = "xoxb-populated-org";

/** The names and ids of one organization's objects, one of every kind. */
export interface OrgObjects {
  readonly database: string;
  readonly collection: string;
  readonly itemId: string;
  readonly fileId: string;
  readonly memoryId: string;
  /** The signed download URL's token of the stored file. */
  readonly fileToken: string;
  readonly requestId: string;
  readonly feedbackId: string;
  readonly deliveryId: string;
  readonly connectorId: string;
  readonly resourceId: string;
  readonly graphDatabase: string;
  readonly graphCollection: string;
}

export interface PopulatedWorld {
  readonly t: TestApp;
  readonly objects: OrgObjects;
  readonly slack: FakeSlack;
  readonly receiver: Receiver;
  close(): Promise<void>;
}

function expect(res: HttpResult, status: number, what: string): HttpResult {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 500)}`);
  return res;
}

/**
 * The real service with one organization (the harness's first) holding an object of every kind:
 * a database with a collection, an app item, an uploaded file and its signed URL, a memory, a
 * logged query with feedback, a webhook with a finished delivery, a paused Slack connector with a
 * resource (paused: the scheduler leaves it alone, so nothing changes on its own), and a graph
 * collection with a node. Every background job has finished when this resolves.
 */
export async function startPopulatedWorld(env: Record<string, string> = {}): Promise<PopulatedWorld> {
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  const receiver = await startReceiver();
  const t = await startTestApp({ CONNECTOR_SLACK_API_URL: slack.url, WEBHOOK_ALLOW_PRIVATE_URLS: "true", ...env });
  try {
    const objects = await populate(t, slack, receiver);
    return {
      t,
      objects,
      slack,
      receiver,
      async close() {
        await t.close();
        await receiver.close();
        await slack.close();
      },
    };
  } catch (err) {
    await t.close();
    await receiver.close();
    await slack.close();
    throw err;
  }
}

async function populate(t: TestApp, slack: FakeSlack, receiver: Receiver): Promise<OrgObjects> {
  const database = "alpha_db";
  const collection = "alpha_team";
  slack.addChannel({ id: "C0ALPHA", name: `general-${MARKER}` });
  expect(await t.request("POST", "/webhooks/indexing", { body: { url: `${receiver.url}/hook-${MARKER}` } }), 200, "webhook");
  await createReadyDatabase(t, database, {
    database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true, description: `schema ${MARKER}` }],
  });
  const itemId = "note-1";
  const fileId = "file-1";
  const memoryId = "mem-1";
  expect(
    await t.request("POST", "/context/ingest", {
      body: {
        type: "knowledge",
        database,
        collection,
        app_knowledge: [
          { id: itemId, type: "note", title: `title ${MARKER}`, content: { text: `The ${MARKER} note body.` }, additional_metadata: { tag: MARKER } },
        ],
      },
    }),
    202,
    "ingest note",
  );
  expect(
    await ingestMultipart(t, { type: "knowledge", database, collection, document_metadata: JSON.stringify([{ id: fileId }]) }, [
      { name: "handbook.txt", content: `Handbook ${MARKER}: the office opens at eight.`, type: "text/plain" },
    ]),
    202,
    "ingest file",
  );
  expect(
    await t.request("POST", "/context/ingest", {
      body: { type: "memory", database, collection, memories: [{ id: memoryId, text: `Ada prefers ${MARKER} tea.` }] },
    }),
    202,
    "ingest memory",
  );
  await waitTerminal(t, database, [itemId, fileId], collection);
  await waitTerminal(t, database, [memoryId], collection);

  const inspect = expect(await t.request("GET", "/context/inspect", { query: { database, collection, id: fileId, mode: "url" } }), 200, "inspect");
  const url = field<string>(inspect.body, "data.presigned_url");
  const fileToken = url.slice(url.lastIndexOf("/") + 1);

  const query = expect(await t.request("POST", "/query", { body: { database, collection, query: `${MARKER} note` } }), 200, "query");
  const requestId = field<string>(query.body, "meta.request_id");
  await t.app.queryLog.flush();
  const feedback = expect(
    await t.request("POST", "/feedback", { body: { request_id: requestId, database, feedback: `useful ${MARKER}`, rating: "positive" } }),
    201,
    "feedback",
  );
  const feedbackId = field<string>(feedback.body, "data.feedback_id");

  const connector = expect(
    await t.request("POST", "/connectors", {
      body: { provider: "slack", name: `slack ${MARKER}`, database, credentials: { access_token: SLACK_TOKEN } },
    }),
    201,
    "connector",
  );
  const connectorId = String(connector.body.connector_id);
  expect(await t.request("POST", `/connectors/${connectorId}/pause`), 200, "pause connector");
  const resourceId = "C0ALPHA";
  expect(await t.request("POST", `/connectors/${connectorId}/resources`, { body: { resource_id: resourceId, resource_type: "channel" } }), 201, "resource");

  const graphDatabase = "alpha_graph";
  const graphCollection = "people";
  expect(await t.request("POST", "/byog/databases", { body: { database: graphDatabase } }), 200, "graph database");
  expect(
    await t.request("POST", "/byog/query", {
      body: { database: graphDatabase, collection: graphCollection, query: "CREATE (:Person {name: $name})", params: { name: MARKER } },
    }),
    200,
    "graph write",
  );

  // Every terminal indexing outcome is delivered to the receiver; wait until none is pending.
  const deliveryId = await eventually(async () => {
    const res = await t.request("GET", "/webhooks/indexing/deliveries");
    const rows = (res.body.deliveries ?? []) as Array<{ delivery_id: string; status: string }>;
    return rows.length >= 3 && rows.every((r) => r.status !== "pending") ? (rows[0]?.delivery_id ?? null) : null;
  }, 30_000);
  await waitForIdleJobs(t);
  return {
    database,
    collection,
    itemId,
    fileId,
    memoryId,
    fileToken,
    requestId,
    feedbackId,
    deliveryId,
    connectorId,
    resourceId,
    graphDatabase,
    graphCollection,
  };
}

/** Waits until no job is due or running (recurring jobs scheduled for later do not count). */
export async function waitForIdleJobs(t: TestApp, timeoutMs = 60_000): Promise<void> {
  await t.app.queryLog.flush();
  await eventually(
    async () => {
      const busy = await t.app.store.db
        .selectFrom("jobs")
        .select("id")
        .where((eb) => eb.or([eb("status", "=", "running"), eb.and([eb("status", "=", "queued"), eb("run_at", "<=", t.clock.now())])]))
        .limit(1)
        .execute();
      return busy.length === 0;
    },
    timeoutMs,
    20,
  );
}
