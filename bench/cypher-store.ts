/**
 * Persistence-backed Cypher benchmark: the graph-area service path (cache check against the
 * stored version, optimistic read, locked write with change-set persistence) on the backend
 * DATABASE_URL selects (unset: embedded SQLite in a temporary directory; set: a fresh PostgreSQL
 * database created next to the given one and dropped afterwards).
 * Graph: 100,000 :Person nodes and 1,000,000 :KNOWS relationships (node 0 has exactly 100
 * outgoing), loaded through UNWIND batches. Usage: npm run bench:cypher-store [-- --nodes N --rels M --runs R]
 * Targets (embedded): indexed lookup p50 < 1 ms, 2-hop count p50 < 5 ms, UNWIND create 100k nodes < 5 s.
 */
import { createApplication, type Application } from "../src/app.js";
import { tenancyOf } from "../src/features/databases/tenancy.js";
import { loadConfig } from "../src/platform/config.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { measure, measureShapes, option, seededRandom, socialGraphShapes } from "./bench-utils.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const NODES = option("nodes", 100_000);
const RELS = option("rels", 1_000_000);
const RUNS = option("runs", 200);
const BATCH = option("batch", 10_000);

const random = seededRandom();
const pick = (n: number) => Math.floor(random() * n);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);

const testDb = await createTestDb();
const open = (): Promise<Application> =>
  createApplication(
    loadConfig({
      LOG_LEVEL: "silent",
      WORKERS: "0",
      DATA_DIR: testDb.dataDir,
      ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : {}),
    }),
  );

const app = await open();
try {
  console.log(`backend: ${app.store.backend}`);
  const org = await app.orgs.createOrganization("bench");
  const database = await app.graphArea.createDatabase({ orgId: org.id }, "bench");
  const at = (collection: string) => ({ ...tenancyOf(database), collection });
  const query = (collection: string, q: string, params: Record<string, unknown> = {}) => app.graphArea.query(at(collection), q, params);

  let t0 = performance.now();
  for (let from = 0; from < NODES; from += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, NODES - from) }, (_, k) => from + k);
    await query("social", "UNWIND $ids AS i CREATE (:Person {id: i, name: 'p' + i, age: i % 80})", { ids });
  }
  await query("social", "CREATE INDEX FOR (n:Person) ON (n.id)");
  console.log(`load ${NODES} nodes (UNWIND batches of ${BATCH}) + index: ${seconds(t0)} s`);
  t0 = performance.now();
  for (let done = 0; done < RELS; done += BATCH) {
    const pairs: number[][] = [];
    for (let k = done; k < Math.min(RELS, done + BATCH); k++) pairs.push(k < 100 ? [0, 1 + pick(NODES - 1)] : [1 + pick(NODES - 1), pick(NODES)]);
    await query("social", "UNWIND $pairs AS p MATCH (a:Person {id: p[0]}), (b:Person {id: p[1]}) CREATE (a)-[:KNOWS]->(b)", { pairs });
  }
  console.log(`load ${RELS} relationships (UNWIND batches of ${BATCH}): ${seconds(t0)} s`);

  await measureShapes(socialGraphShapes(NODES, RUNS, pick), async (q, params) => (await query("social", q, params)).rowCount);
  await measure("single-node write (SET, persisted)", RUNS, async () => {
    return (await query("social", "MATCH (n:Person {id: $id}) SET n.seen = true", { id: pick(NODES) })).rowCount;
  });

  t0 = performance.now();
  await query("items", "UNWIND range(1, 100000) AS i CREATE (:Item {i: i, name: 'item' + i})");
  console.log(`UNWIND create 100,000 nodes (persisted): ${seconds(t0)} s`);

  // A second instance on the same store starts cold: its first query loads the whole graph.
  const other = await open();
  try {
    t0 = performance.now();
    await other.graphArea.query(at("social"), "MATCH (n:Person {id: 0}) RETURN n.name", {});
    console.log(`cold load of the social graph by a second instance: ${seconds(t0)} s`);
  } finally {
    await other.close();
  }
} finally {
  await app.close();
  await testDb.drop();
}
