// The graph, Cypher, connector and webhook screens of `npm run screenshots`: their sample data (a
// Slack thread with its people, a graph collection, a Slack connector synced from a local fake
// Slack, a webhook to a local receiver) and the screens to photograph. The fake Slack and the
// receiver listen on 127.0.0.1, so the service needs their settings (`env`) before it starts.
import type { Page } from "playwright-core";
import { FakeSlack } from "../test/helpers/fake-providers/slack.js";
import { email, SLACK_ROOT, slackThread } from "../test/context-graph/graph-fixtures.js";
import { startReceiver } from "../test/helpers/webhook-receiver.js";

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

export interface GraphScreen {
  readonly name: string;
  readonly hash: string;
  readonly prepare?: (page: Page) => Promise<void>;
}

export interface GraphScreens {
  /** Settings the service needs: the fake Slack's address, private webhook targets allowed. */
  readonly env: Readonly<Record<string, string>>;
  readonly screens: readonly GraphScreen[];
  /** Loads the sample data through the public API (after the databases exist). */
  seed(api: Api, until: (what: string, check: () => Promise<boolean>) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

const SLACK_TOKEN = "xoxb-screenshots";
const CYPHER = "MATCH (p:Person)-[r]->(x)\nRETURN p, r, x";

export async function graphScreens(): Promise<GraphScreens> {
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  const receiver = await startReceiver();
  slack.addUser({ id: "UADA", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addUser({ id: "UGRACE", name: "Grace Hopper", email: "grace@example.com" });
  slack.addChannel({ id: "C0RELEASES", name: "releases" });
  slack.addChannel({ id: "C0SUPPORT", name: "support" });
  slack.addChannel({ id: "C0RANDOM", name: "random" });
  const root = slack.post("C0RELEASES", { user: "UADA", text: "v1.9 is tagged; rollout starts at 14:00" });
  slack.post("C0RELEASES", { user: "UGRACE", text: "Migrations check passed on staging", threadTs: root });
  slack.post("C0SUPPORT", { user: "UGRACE", text: "Customer asks for a CSV export of invoices" });
  let connectorId = "";

  const screens: GraphScreen[] = [
    {
      name: "subgraph",
      hash: `#/subgraph/${encodeURIComponent(`slack:message:${SLACK_ROOT}`)}`,
      prepare: async (page) => {
        await page.locator('[data-testid="graph-canvas"][data-ready="true"]').waitFor();
        await page.locator(`[data-testid="graph-node"][data-node-id="item:slack:message:${SLACK_ROOT}"] button`).click();
        await page.getByTestId("node-details").waitFor();
      },
    },
    {
      name: "cypher",
      hash: "#/cypher",
      prepare: async (page) => {
        // The console's one database choice is the header's: graph databases are listed there too.
        await page.locator('[data-testid="database-picker"] option[value="social"]').waitFor({ state: "attached" });
        await page.getByTestId("database-picker").selectOption("social");
        await page.getByTestId("cypher-collection").fill("people");
        await page.getByTestId("cypher-query").fill(CYPHER);
        await page.getByTestId("cypher-run").click();
        await page.locator('[data-testid="graph-canvas"][data-ready="true"]').waitFor();
        // the picture shows the answer: the query form scrolls out at the top
        await page.evaluate(`document.querySelector('[data-testid="cypher-query"]').scrollIntoView({ block: "start" })`);
      },
    },
    { name: "connectors", hash: "#/connectors", prepare: (page) => page.getByTestId("connector-link").first().waitFor() },
    {
      name: "connector",
      get hash() {
        return `#/connectors/${connectorId}`;
      },
      prepare: async (page) => {
        await page.getByTestId("resource-row").first().waitFor();
        await page.getByTestId("discover-run").click();
        await page.getByTestId("discovered-row").first().waitFor();
      },
    },
    { name: "webhooks", hash: "#/webhooks", prepare: (page) => page.getByTestId("delivery-row").first().waitFor() },
  ];

  return {
    env: { CONNECTOR_SLACK_API_URL: slack.url, WEBHOOK_ALLOW_PRIVATE_URLS: "true" },
    screens,
    async seed(api, until) {
      await api("POST", "/webhooks/indexing", { url: receiver.url, generate_signing_secret: true });
      await api("POST", "/context/ingest", { database: "demo", type: "knowledge", app_knowledge: [...slackThread, email] });

      await api("POST", "/byog/databases", { database: "social" });
      await api("POST", "/byog/query", {
        database: "social",
        collection: "people",
        query:
          "CREATE (ada:Person {name: 'Ada Lovelace'}), (grace:Person {name: 'Grace Hopper'}), (alan:Person {name: 'Alan Turing'}), " +
          "(ae:Project {name: 'Analytical Engine'}), (cobol:Project {name: 'COBOL'}), (navy:Organization {name: 'US Navy'}), " +
          "(ada)-[:WORKED_ON]->(ae), (grace)-[:WORKED_ON]->(cobol), (grace)-[:SERVED_IN]->(navy), (alan)-[:CITED]->(ada), (grace)-[:KNOWS]->(alan)",
      });

      const created = await api("POST", "/connectors", { provider: "slack", name: "Acme Slack", database: "demo", credentials: { access_token: SLACK_TOKEN } });
      connectorId = String(created.connector_id);
      await api("POST", `/connectors/${connectorId}/configure`, { resources: [{ resource_id: "C0RELEASES" }, { resource_id: "C0SUPPORT" }] });
      try {
        await api("POST", `/connectors/${connectorId}/sync`);
      } catch (error) {
        // 409: the scheduler started the newly configured connector first; a run is on either way
        if (!String(error).includes(": 409 ")) throw error;
      }
      await until("the connector's first sync", async () => (await api("GET", `/connectors/${connectorId}`)).lifecycle === "active");
      await until("webhook deliveries", async () => ((await api("GET", "/webhooks/indexing/deliveries")).count as number) >= 4);
    },
    async close() {
      await slack.close();
      await receiver.close();
    },
  };
}
