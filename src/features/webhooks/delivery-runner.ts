import { backoffDelay } from "../../platform/util/backoff.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { deliveryHeaders } from "./event.js";
import type { HttpSender, SendResult } from "./http-sender.js";
import type { WebhookDeliveryStatus } from "./rows.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { WebhookStore, type DeliveryRow } from "./store.js";

export interface RetrySchedule {
  readonly baseMs: number;
  readonly maxMs: number;
}

type Outcome = SendResult | { ok: false; code: "WEBHOOK_NOT_REGISTERED" | "SIGNING_SECRET_UNAVAILABLE"; message: string; statusCode: null };

// Failures that another attempt cannot fix without someone changing the registration.
const FINAL_CODES: ReadonlySet<string> = new Set(["TARGET_REFUSED", "WEBHOOK_NOT_REGISTERED", "SIGNING_SECRET_UNAVAILABLE"]);

/**
 * Runs one delivery attempt (the `webhook.deliver` job). Sends the frozen body to the
 * organization's current URL, signed with its current secret, then in one transaction
 * records the outcome and, if the attempt failed and attempts remain, enqueues the next
 * one after an exponential backoff with jitter. A job whose attempt was already recorded
 * (a duplicate or a retried job after a crash) does nothing.
 */
export class DeliveryRunner {
  constructor(
    private readonly store: Store,
    private readonly queue: JobQueue,
    private readonly sender: HttpSender,
    private readonly secrets: SecretBox,
    private readonly schedule: RetrySchedule,
    /** Told the outcome of every recorded attempt (metrics). */
    private readonly onAttempt: (outcome: "delivered" | "retrying" | "failed") => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async run(deliveryId: string, attempt: number, signal?: AbortSignal): Promise<void> {
    const webhooks = new WebhookStore(this.store.db);
    // The job names only the delivery; its row names the organization every later query is scoped by.
    const delivery = await webhooks.findDeliveryForJobAcrossOrganizations(deliveryId);
    if (!delivery || delivery.status !== "pending" || delivery.attempts !== attempt - 1) return;
    const org = { orgId: delivery.org_id };
    const outcome = await this.attempt(webhooks, org, delivery, signal);
    // Cut short by a shutdown: record nothing; the worker gives the job back to the queue.
    if (signal?.aborted) throw new Error("delivery interrupted by shutdown");
    const status: WebhookDeliveryStatus = outcome.ok ? "completed" : FINAL_CODES.has(outcome.code) || attempt >= delivery.max_attempts ? "failed" : "pending";
    const written = await this.store.transaction(async (tx) => {
      const recorded = await new WebhookStore(tx).recordAttempt(
        org,
        deliveryId,
        attempt,
        {
          status,
          errorCode: outcome.ok ? "" : outcome.code,
          errorMessage: outcome.ok ? "" : outcome.message,
          statusCode: outcome.statusCode,
        },
        this.now(),
      );
      if (recorded && status === "pending") {
        const runAt = this.now() + backoffDelay(attempt, this.schedule.baseMs, this.schedule.maxMs);
        await this.queue.enqueue("webhook.deliver", { deliveryId, attempt: attempt + 1 }, { executor: tx, runAt });
      }
      return recorded;
    });
    if (written) this.onAttempt(status === "completed" ? "delivered" : status === "pending" ? "retrying" : "failed");
  }

  private async attempt(webhooks: WebhookStore, org: OrgTenancy, delivery: DeliveryRow, signal?: AbortSignal): Promise<Outcome> {
    const endpoint = await webhooks.getEndpoint(org);
    if (!endpoint) return { ok: false, code: "WEBHOOK_NOT_REGISTERED", message: "no webhook is registered for this organization", statusCode: null };
    let secret: string | null = null;
    if (endpoint.signing_secret !== null) {
      const opened = this.secrets.open(endpoint.signing_secret);
      if (!opened.ok) return { ok: false, code: "SIGNING_SECRET_UNAVAILABLE", message: opened.reason, statusCode: null };
      secret = opened.secret;
    }
    const body = Buffer.from(delivery.payload, "utf8");
    return this.sender.send(endpoint.url, body, deliveryHeaders(delivery.id, delivery.event_type, body, secret), signal);
  }
}
