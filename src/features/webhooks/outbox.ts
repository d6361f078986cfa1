import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Executor } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { newId } from "../../platform/util/ids.js";
import { INDEXING_STATUS_CHANGED, indexingEventBody } from "./event.js";
import { WebhookStore } from "./store.js";

/** A status change of one organization's item (the pipeline reads the organization from the item row). */
export interface IndexingStatusChange extends OrgTenancy {
  readonly database: string;
  readonly collection: string;
  readonly itemId: string;
  readonly indexingStatus: string;
  readonly errorCode?: string | null;
  readonly errorMessage?: string | null;
}

/** Terminal outcomes announce themselves; `success` is an alias of `completed`. */
const TERMINAL: Readonly<Record<string, string>> = {
  completed: "completed",
  success: "completed",
  errored: "errored",
  failed: "failed",
};

const terminalStatusOf = (status: string): string | null => TERMINAL[status.trim().toLowerCase()] ?? null;

/**
 * The webhook outbox. The ingestion pipeline calls recordStatusChange with the
 * transaction that writes an item's new status; when the organization has a webhook and
 * the status is terminal, the delivery record and its delivery job are written in that
 * same transaction, so the event exists if and only if the status change does.
 */
export class WebhookOutbox {
  constructor(
    private readonly queue: JobQueue,
    private readonly options: { readonly maxAttempts: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** The new delivery's id, or null when nothing is to be sent. */
  async recordStatusChange(tx: Executor, change: IndexingStatusChange): Promise<string | null> {
    const status = terminalStatusOf(change.indexingStatus);
    if (status === null) return null;
    const webhooks = new WebhookStore(tx);
    const endpoint = await webhooks.getEndpoint(change);
    if (!endpoint || !(JSON.parse(endpoint.event_types) as string[]).includes(INDEXING_STATUS_CHANGED)) return null;
    const id = newId();
    const at = this.now();
    const errorCode = change.errorCode ?? "";
    const errorMessage = change.errorMessage ?? "";
    await webhooks.insertDelivery({
      id,
      org_id: change.orgId,
      event_type: INDEXING_STATUS_CHANGED,
      doc_id: change.itemId,
      database_name: change.database,
      collection: change.collection,
      indexing_status: status,
      payload: indexingEventBody({ deliveryId: id, ...change, indexingStatus: status, errorCode, errorMessage, at }),
      status: "pending",
      attempts: 0,
      max_attempts: this.options.maxAttempts,
      error_code: "",
      error_message: "",
      last_status_code: null,
      created_at: at,
      updated_at: at,
      completed_at: null,
    });
    await this.queue.enqueue("webhook.deliver", { deliveryId: id, attempt: 1 }, { executor: tx });
    return id;
  }
}
