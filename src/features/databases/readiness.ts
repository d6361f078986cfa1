import type { Corpus } from "../items/item-types.js";
import type { Store } from "../../platform/store/db.js";
import type { Infra } from "./service.js";
import type { DatabaseRow } from "./store.js";
import { JobStore } from "../../platform/jobs/job-store.js";
import { ReadinessStore } from "./readiness-store.js";

/** A due job older than this, with no job worker in this process, means nobody drains the queue. */
const SCHEDULER_STALL_MS = 60_000;

export interface ReadinessProbes {
  /** This process claims jobs (started, not stopping, WORKERS > 0). */
  workersRunning(): boolean;
  /** The corpus's vector storage of the database answers (see VectorStore.ready). */
  vectorsReady(database: DatabaseRow, corpus: Corpus): Promise<boolean>;
}

/**
 * `data.infra` of GET /databases/status, each flag measured on the real thing at the time of
 * the request, so a flag turns false when its part fails (a probe that throws counts as false):
 * - scheduler_status: the job queue answers, and jobs are being taken: by this process's workers,
 *   or (API-only node) by some other process, i.e. no due job has waited SCHEDULER_STALL_MS.
 * - vectorstore_status.{knowledge,memories}: that corpus's vector storage answers.
 * - graph_status: the database's context-graph tables answer and the scheduler runs (graphs are
 *   built by jobs).
 * - ready_for_ingestion: the database is provisioned and both vector stores are ready.
 */
export class DatabaseReadiness {
  constructor(
    private readonly store: Store,
    private readonly probes: ReadinessProbes,
    private readonly now: () => number = Date.now,
  ) {}

  async of(row: DatabaseRow): Promise<Infra> {
    const [scheduler, graphTables, knowledge, memories] = await Promise.all([
      probe(() => this.schedulerRuns()),
      probe(() => this.graphTablesAnswer(row)),
      probe(() => this.probes.vectorsReady(row, "knowledge")),
      probe(() => this.probes.vectorsReady(row, "memory")),
    ]);
    return {
      ready_for_ingestion: row.status === "ready" && knowledge && memories,
      scheduler_status: scheduler,
      graph_status: graphTables && scheduler,
      vectorstore_status: { knowledge, memories },
    };
  }

  private async schedulerRuns(): Promise<boolean> {
    const at = this.now();
    const oldest = await new JobStore(this.store.db, this.store.backend).oldestDueRunAt(at);
    if (this.probes.workersRunning()) return true;
    return oldest === undefined || at - oldest < SCHEDULER_STALL_MS;
  }

  private async graphTablesAnswer(row: DatabaseRow): Promise<boolean> {
    await new ReadinessStore(this.store.db).graphTablesAnswer({ orgId: row.org_id, databaseId: row.id });
    return true;
  }
}

async function probe(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    // The failure is the answer: the flag reads false in the response, as documented above.
    return false;
  }
}
