import { invalidInput, rateLimited } from "../../platform/errors/app-error.js";
import type { DatabaseService } from "../databases/service.js";
import { validateDatabaseName } from "../databases/service.js";
import type { Executor, Store } from "../../platform/store/db.js";
import { newId } from "../../platform/util/ids.js";
import { normalizeFeedback } from "./normalize-feedback.js";
import type { QueryLog } from "./query-log.js";
import type { FeedbackBodyType } from "./schemas.js";
import { FeedbackStore, type FeedbackRow } from "./store.js";

const WINDOW_MS = 60_000;

export interface FeedbackScope {
  readonly database: string | undefined;
  readonly collection: string | undefined;
}

/**
 * Records feedback on a query. Submissions are only stored, never applied: feedback does
 * not change query results. The rate limit counts stored rows, so it holds across every
 * process sharing the store.
 */
export class FeedbackService {
  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    private readonly queryLog: QueryLog,
    private readonly limits: { perMinute: number },
    private readonly now: () => number = Date.now,
  ) {}

  async submit(orgId: string, scope: FeedbackScope, body: FeedbackBodyType): Promise<FeedbackRow> {
    const normalized = normalizeFeedback(body);
    if (!normalized.ok) throw invalidInput(normalized.reason);
    const input = normalized.value;
    if (scope.collection !== undefined && scope.database === undefined) {
      throw invalidInput("'collection' requires 'database' in the same request");
    }
    if (!(await this.queryLog.find({ orgId }, input.requestId))) {
      throw invalidInput("'request_id' is not the request id of a query made by this organization");
    }
    const database = scope.database === undefined ? null : await this.databases.get(orgId, validateDatabaseName(scope.database));

    return this.store.transaction(async (tx) => {
      const feedback = new FeedbackStore(tx, this.store.backend);
      await feedback.lockOrganization(orgId);
      const at = this.now();
      const recent = await feedback.newestTimes(orgId, at - WINDOW_MS, this.limits.perMinute);
      const oldestCounted = recent[this.limits.perMinute - 1];
      if (oldestCounted !== undefined) {
        throw rateLimited(Math.max(1, Math.ceil((oldestCounted + WINDOW_MS - at) / 1000)));
      }
      const row: FeedbackRow = {
        id: newId(),
        org_id: orgId,
        request_id: input.requestId,
        database_id: database?.id ?? null,
        database_name: database?.name ?? null,
        collection: database ? (scope.collection ?? null) : null,
        feedback: input.feedback,
        rating: input.rating,
        source: input.source,
        ground_truth: input.groundTruth ? JSON.stringify(input.groundTruth) : null,
        metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        created_at: at,
      };
      await feedback.insert(row);
      return row;
    });
  }

  /** Purger for a deleted database: its feedback goes with it. */
  async purgeDatabase(tx: Executor, databaseId: string): Promise<void> {
    await new FeedbackStore(tx, this.store.backend).deleteByDatabase(databaseId);
  }
}
