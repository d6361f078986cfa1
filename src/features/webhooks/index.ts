import type { Config } from "../../platform/config.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import { DeliveryRunner } from "./delivery-runner.js";
import { HttpSender } from "./http-sender.js";
import { WebhookOutbox } from "./outbox.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { WebhookService } from "./service.js";
import { TargetGuard } from "./target-guard.js";

export { WebhookOutbox } from "./outbox.js";
export interface Webhooks {
  readonly outbox: WebhookOutbox;
  readonly service: WebhookService;
  readonly runner: DeliveryRunner;
}

const MAX_REDIRECTS = 5;

/** Wires the webhook subsystem from the configuration; called by the composition root. */
export function createWebhooks(
  config: Config,
  store: Store,
  queue: JobQueue,
  secrets: SecretBox,
  onAttempt?: (outcome: "delivered" | "retrying" | "failed") => void,
): Webhooks {
  const guard = new TargetGuard(config.webhookAllowPrivateUrls);
  const sender = new HttpSender(guard, { timeoutMs: config.webhookTimeoutMs, maxRedirects: MAX_REDIRECTS });
  const attempts = { maxAttempts: config.webhookMaxAttempts };
  const schedule = { baseMs: config.webhookRetryBaseMs, maxMs: config.webhookRetryMaxMs };
  return {
    outbox: new WebhookOutbox(queue, attempts),
    service: new WebhookService(store, queue, guard, sender, secrets, attempts),
    runner: new DeliveryRunner(store, queue, sender, secrets, schedule, onAttempt),
  };
}
