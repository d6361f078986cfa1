/**
 * In-memory Cypher benchmark: a generated social graph of 100,000 :Person nodes and 1,000,000
 * :KNOWS relationships (node 0 has exactly 100 outgoing edges). Prints p50/p95 per query shape.
 * Usage: npm run bench:cypher [-- --nodes N --rels M --runs R]
 * Targets: indexed lookup p50 < 1 ms, 2-hop count p50 < 5 ms, UNWIND create 100k nodes < 5 s.
 */
import { MemoryGraphStore, executeCypher } from "../src/engines/cypher/index.js";
import { measureShapes, option, seededRandom, socialGraphShapes } from "./bench-utils.js";

const NODES = option("nodes", 100_000);
const RELS = option("rels", 1_000_000);
const RUNS = option("runs", 200);

const random = seededRandom();
const pick = (n: number) => Math.floor(random() * n);

function buildGraph(): MemoryGraphStore {
  const store = new MemoryGraphStore();
  const t0 = performance.now();
  for (let i = 0; i < NODES; i++) {
    store.createNode(
      ["Person"],
      new Map<string, bigint | string>([
        ["id", BigInt(i)],
        ["name", `p${i}`],
        ["age", BigInt(i % 80)],
      ]),
    );
  }
  const noProps = new Map<string, bigint>();
  for (let k = 0; k < 100; k++) store.createRelationship("KNOWS", 0, 1 + pick(NODES - 1), noProps);
  for (let k = 100; k < RELS; k++) {
    const from = 1 + pick(NODES - 1);
    store.createRelationship("KNOWS", from, pick(NODES), noProps);
  }
  store.commit();
  store.takeChanges();
  console.log(`graph: ${NODES} nodes, ${RELS} relationships built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = performance.now();
  executeCypher(store, "CREATE INDEX FOR (n:Person) ON (n.id)");
  store.commit();
  console.log(`index on :Person(id) built in ${(performance.now() - t1).toFixed(0)} ms`);
  return store;
}

const store = buildGraph();
await measureShapes(socialGraphShapes(NODES, RUNS, pick), (query, params) => executeCypher(store, query, params).rows.length);

const fresh = new MemoryGraphStore();
const t0 = performance.now();
executeCypher(fresh, "UNWIND range(1, 100000) AS i CREATE (:Item {i: i, name: 'item' + i})");
console.log(`UNWIND create 100,000 nodes         ${((performance.now() - t0) / 1000).toFixed(2)} s (${fresh.nodeCount()} nodes)`);
