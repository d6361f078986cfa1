import type { DatabaseRow } from "./store.js";
import type { DatabaseStore } from "./store.js";

/** Counts one subsystem's objects in a database, e.g. `{knowledge_items: 3}`. */
export type StatsContributor = (database: DatabaseRow) => Promise<Record<string, number>>;

/**
 * Object counts by kind for GET /databases/stats. Subsystems contribute their counts;
 * the legacy `knowledge_collection` / `memory_collection` shape is derived from them.
 */
export class DatabaseStats {
  constructor(
    private readonly databases: DatabaseStore,
    private readonly dimensions: () => number,
    private readonly contributors: readonly StatsContributor[],
  ) {}

  async of(row: DatabaseRow): Promise<Record<string, unknown>> {
    const counts: Record<string, number> = { collections: (await this.databases.listCollections(row.id)).length };
    for (const c of this.contributors) Object.assign(counts, await c(row));
    return {
      database: row.name,
      tenant_id: row.name,
      counts,
      knowledge_collection: { row_count: counts.knowledge_chunks ?? 0, dimensions: this.dimensions() },
      memory_collection: { row_count: counts.memory_chunks ?? 0, dimensions: this.dimensions() },
    };
  }
}
