import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CompiledQuery, sql, type Compilable } from "kysely";
import { vectorCountBetween, vectorKeysAbove, type VectorScope } from "../../src/features/search/vector-store.js";
import { itemStatusesQuery, statusWrite } from "../../src/features/items/store.js";
import { claimStatement } from "../../src/platform/jobs/job-store.js";
import { entityTripletsQuery, foundChunkTripletsQuery } from "../../src/features/context-graph/graph-read-store.js";
import { liveDatabaseQuery } from "../../src/features/databases/store.js";
import { startTestApp, type TestApp } from "../helpers/harness.js";

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => t.close());

/** The store's plan of a statement the service runs, as one line of text. */
async function planOf(query: Compilable): Promise<string> {
  const { sql: text, parameters } = query.compile();
  if (t.app.store.backend === "sqlite") {
    // The values stay bound, as the service runs the statement: SQLite plans a condition on a
    // bound value without knowing it (a partial index's condition then does not hold).
    const rows = await t.app.store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]));
    return rows.rows.map((r) => r.detail).join("; ");
  }
  // PostgreSQL picks a sequential scan of a small table whatever its indexes: forbid it to see
  // whether an index can serve the statement at all.
  return t.app.store.transaction(async (tx) => {
    await sql.raw("SET LOCAL enable_seqscan = off").execute(tx);
    const rows = await sql.raw<{ "QUERY PLAN": string }>(`EXPLAIN ${inline(text, parameters)}`).execute(tx);
    return rows.rows.map((r) => r["QUERY PLAN"]).join("; ");
  });
}

/** Parameters written into the text (numbers and quoted strings only), since EXPLAIN takes no placeholders here. */
function inline(text: string, parameters: readonly unknown[]): string {
  let i = 0;
  return text.replace(/\?|\$\d+/g, () => {
    const value = parameters[i++];
    return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}

test("every data request finds its database through the index of live names, not by reading every organization's databases", async () => {
  const plan = await planOf(liveDatabaseQuery(t.app.store.db, { orgId: "org", name: "db" }));
  if (t.app.store.backend === "sqlite") {
    // With the state bound as a value (status <> ?) the partial index's condition could not be
    // proven and each request scanned the table.
    assert.match(plan, /SEARCH databases USING INDEX databases_live_name \(org_id=\? AND name=\?\)/, plan);
  } else {
    assert.match(plan, /databases_live_name/, plan);
    assert.doesNotMatch(plan, /Seq Scan/, plan);
  }
});

test("the vector index's periodic reads are index range reads, not scans of the vectors", async () => {
  const scope: VectorScope = { orgId: "org", databaseId: "db", corpus: "knowledge", collection: "c" };
  const reads = [vectorKeysAbove(t.app.store.db, scope, 10), vectorCountBetween(t.app.store.db, scope, 3, 10)];
  for (const read of reads) {
    const plan = await planOf(read);
    if (t.app.store.backend === "sqlite") {
      // Every 5 s per collection on the request thread: reading the 2 KB vector rows made the count
      // take 250-300 ms at 110,000 vectors (bench:load-kinds, session 14).
      assert.match(plan, /USING COVERING INDEX context_vectors_scope_keys/, plan);
    } else {
      assert.match(plan, /Index/, plan);
      assert.doesNotMatch(plan, /Seq Scan/, plan);
    }
  }
});

test("an ingest status check finds its items through the source index, naming both corpora when either may hold them", async () => {
  const scope = { orgId: "org", databaseId: "db", collection: "c" };
  for (const corpus of [null, "memory"] as const) {
    const plan = await planOf(itemStatusesQuery(t.app.store.db, scope, ["a", "b"], corpus));
    if (t.app.store.backend === "sqlite") {
      // Without a corpus SQLite walked every item of the database (21.6 ms for 8 ids at 110,000 items).
      assert.match(plan, /SEARCH context_items USING INDEX context_items_source \(database_id=\? AND corpus=\? AND collection=\? AND source_id=\?\)/, plan);
    } else {
      // PostgreSQL plans by its statistics (an empty table here): an index, never a scan.
      assert.match(plan, /Index/, plan);
      assert.doesNotMatch(plan, /Seq Scan/, plan);
    }
  }
});

test("a query's graph context reads its results' chunk triplets through the chunk index, without the items", async () => {
  const scope = { backend: t.app.store.backend, orgId: "org", databaseId: "db", corpus: "knowledge", collection: "c", principals: null, now: 1 } as const;
  const plan = await planOf(foundChunkTripletsQuery(t.app.store.db, scope, ["a", "b"], 100));
  if (t.app.store.backend === "sqlite") {
    assert.match(plan, /SEARCH context_graph_triplets USING INDEX context_graph_triplets_chunk \(chunk_id=\?\)/, plan);
    assert.match(plan, /SEARCH es USING INDEX \w+ \(database_id=\? AND corpus=\? AND collection=\? AND entity_id=\?\)/, plan);
  } else {
    assert.match(plan, /context_graph_triplets_chunk/, plan);
  }
  assert.doesNotMatch(plan, /context_graph_triplets_scope|context_items|Seq Scan|SCAN context_graph_triplets/, plan);
});

test("a pipeline status write looks its items up by id, whatever the state it moves them from", async () => {
  const values = { status: "completed" as const, updated_at: 1, error_code: null, message: null };
  for (const live of [["graph_creation"], ["processing"], ["queued", "processing"]] as const) {
    const plan = await planOf(statusWrite(t.app.store.db, { org_id: "org", generation: 1 }, ["a", "b", "c"], live, values));
    if (t.app.store.backend === "sqlite") {
      // With one state SQLite walked that state's index: every item waiting for its graph during a
      // bulk ingest, 1.4 ms a statement.
      assert.match(plan, /SEARCH context_items USING INDEX \w+ \(id=\?/, plan);
      assert.doesNotMatch(plan, /context_items_status/, plan);
    } else {
      assert.match(plan, /Index Cond: \(\(?id = ANY/, plan);
      assert.doesNotMatch(plan, /context_items_status/, plan);
    }
  }
});

test("a job claim reads each of its lane's kinds through the claim index in run_at order, not every due job", async () => {
  for (const kinds of [["ingest.item"], ["ingest.graph"], ["webhook.deliver", "jobs.prune"]]) {
    const claim = claimStatement(t.app.store.backend, "owner", 1_000, 60_000, 4, kinds);
    const plan = await planOf({ compile: () => claim.compile(t.app.store.db) });
    if (t.app.store.backend === "sqlite") {
      // With (status, run_at) alone the ingestion lane read every due job of every kind: the graph
      // backlog of bench:load's soak on each claim.
      const seeks = plan.match(/SEARCH jobs USING (COVERING )?INDEX jobs_claim \(status=\? AND kind=\? AND run_at<\?\)/g) ?? [];
      assert.equal(seeks.length, kinds.length, plan);
      // And each kind's expired leases, the index's `running` range of that kind, in run_at order too.
      const expired = plan.match(/SEARCH jobs USING (COVERING )?INDEX jobs_claim \(status=\? AND kind=\?\)/g) ?? [];
      assert.equal(expired.length, kinds.length, plan);
      assert.doesNotMatch(plan, /jobs_ready/, plan);
      // One OR over the states, sorted as a whole, sorted every due job to take the first few
      // (21 ms a claim at 100,000 queued); each kind's arm now stops at the limit, and only the
      // union of those few rows is sorted.
      assert.doesNotMatch(plan, /MULTI-INDEX OR/, plan);
      assert.equal((plan.match(/USE TEMP B-TREE FOR ORDER BY/g) ?? []).length, 1, plan);
    } else {
      // Each kind's due jobs: an ordered read of the claim index, locked (SKIP LOCKED) and cut at the limit.
      const seeks =
        plan.match(
          /Index Scan using jobs_claim on jobs \S+ +\(cost=[^)]*\); +Index Cond: \(\(status = 'queued'::text\) AND \(kind = '[^']+'::text\) AND \(run_at <= 1000\)\)/g,
        ) ?? [];
      assert.equal(seeks.length, kinds.length, plan);
      // And each kind's expired leases: the index's `running` range of that kind, in run_at order.
      const expired =
        plan.match(/Index Scan using jobs_claim on jobs \S+ +\(cost=[^)]*\); +Index Cond: \(\(status = 'running'::text\) AND \(kind = '[^']+'::text\)\)/g) ??
        [];
      assert.equal(expired.length, kinds.length, plan);
      assert.match(plan, /LockRows/, plan);
      assert.doesNotMatch(plan, /Seq Scan on jobs/, plan);
    }
  }
});

test("a query's graph context reads each named entity's triplets as an ordered range of that end's index, cut at the limit", async () => {
  const scope = { backend: t.app.store.backend, orgId: "org", databaseId: "db", corpus: "memory" as const, collection: "c", principals: null, now: 1_000 };
  const plan = await planOf(entityTripletsQuery(t.app.store.db, scope, ["ent_a", "ent_b"], undefined, 0, 40));
  for (const end of ["source", "target"]) {
    if (t.app.store.backend === "sqlite") {
      // Every index ends with the rowid, which triplet_key is: each entity's entries are in key order.
      const ranges =
        plan.match(
          new RegExp(
            `SEARCH t USING INDEX context_graph_triplets_${end} \\(database_id=\\? AND corpus=\\? AND collection=\\? AND ${end}_entity_id=\\? AND rowid>\\?\\)`,
            "g",
          ),
        ) ?? [];
      assert.equal(ranges.length, 2, plan);
    } else {
      // Migration 0021: the key is the last column, so the ordered read needs no sort of the entity's triplets.
      assert.match(plan, new RegExp(`Index (Only )?Scan using context_graph_triplets_${end}_key`), plan);
    }
  }
  assert.doesNotMatch(plan, /SCAN t\b|Seq Scan on context_graph_triplets/, plan);
});
