import { AppError, invalidInput, validationError } from "../../platform/errors/app-error.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { newId } from "../../platform/util/ids.js";
import { EVENT_TYPES, WEBHOOK_TEST, deliveryHeaders, testEventBody } from "./event.js";
import type { HttpSender } from "./http-sender.js";
import type { WebhookDeliveryStatus } from "./rows.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { checkSigningSecret, generateSigningSecret } from "./signing.js";
import { WebhookStore, type DeliveryRow, type EndpointRow } from "./store.js";
import type { TargetGuard } from "./target-guard.js";
import { registrationView, type RegistrationView } from "./views.js";

export interface Registration {
  readonly url: string;
  readonly eventTypes?: readonly string[] | null;
  readonly signingSecret?: string | null;
  readonly generateSigningSecret?: boolean | null;
}

export interface SecretChange {
  readonly configured: boolean;
  /** Only when the service generated it: shown once, never again. */
  readonly generated: string | null;
}

export interface TestResult {
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly message: string;
}

const notRegistered = (): AppError => new AppError("NOT_FOUND", "No webhook is registered for this organization");

/** Registration, signing secrets, delivery records, manual retries and test deliveries. */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly queue: JobQueue,
    private readonly guard: TargetGuard,
    private readonly sender: HttpSender,
    private readonly secrets: SecretBox,
    private readonly options: { readonly maxAttempts: number },
    private readonly now: () => number = Date.now,
  ) {}

  async get(org: OrgTenancy): Promise<RegistrationView> {
    return registrationView(await new WebhookStore(this.store.db).getEndpoint(org));
  }

  async register(org: OrgTenancy, input: Registration): Promise<RegistrationView & { generated: string | null }> {
    if (input.generateSigningSecret === true && input.signingSecret != null) {
      throw validationError("Send either 'generate_signing_secret' or 'signing_secret', not both");
    }
    const checked = await this.guard.check(input.url);
    if (!checked.ok) throw invalidInput(`'url' is not allowed: ${checked.reason}`);
    const eventTypes = input.eventTypes && input.eventTypes.length > 0 ? [...new Set(input.eventTypes)] : [...EVENT_TYPES];
    const unknown = eventTypes.filter((t) => !EVENT_TYPES.includes(t));
    if (unknown.length > 0) throw invalidInput(`Unknown event type(s): ${unknown.join(", ")}; supported: ${EVENT_TYPES.join(", ")}`);
    const generated = input.generateSigningSecret === true ? generateSigningSecret() : null;
    const secret = generated ?? (input.signingSecret != null ? this.validSecret(input.signingSecret) : null);
    const at = this.now();
    const row: EndpointRow = {
      org_id: org.orgId,
      url: checked.target.url.toString(),
      event_types: JSON.stringify(eventTypes),
      signing_secret: secret === null ? null : this.secrets.seal(secret),
      created_at: at,
      updated_at: at,
    };
    const webhooks = new WebhookStore(this.store.db);
    // Omitting the secret keeps whatever secret the registration already had.
    await webhooks.upsertEndpoint(row, secret === null);
    return { ...registrationView(await webhooks.getEndpoint(org)), generated };
  }

  async delete(org: OrgTenancy): Promise<boolean> {
    return new WebhookStore(this.store.db).deleteEndpoint(org);
  }

  /** Sets the given secret, or generates one when none is given. */
  async setSecret(org: OrgTenancy, given: string | null | undefined): Promise<SecretChange> {
    const generated = given == null ? generateSigningSecret() : null;
    const secret = generated ?? this.validSecret(given ?? "");
    if (!(await new WebhookStore(this.store.db).setSecret(org, this.secrets.seal(secret), this.now()))) throw notRegistered();
    return { configured: true, generated };
  }

  async disableSigning(org: OrgTenancy): Promise<SecretChange> {
    if (!(await new WebhookStore(this.store.db).setSecret(org, null, this.now()))) throw notRegistered();
    return { configured: false, generated: null };
  }

  listDeliveries(org: OrgTenancy, page: { status?: WebhookDeliveryStatus; limit: number; after?: { createdAt: number; id: string } }): Promise<DeliveryRow[]> {
    return new WebhookStore(this.store.db).listDeliveries(org, page);
  }

  async getDelivery(org: OrgTenancy, id: string): Promise<DeliveryRow> {
    const row = await new WebhookStore(this.store.db).getDelivery(org, id);
    if (!row) throw new AppError("DELIVERY_NOT_FOUND", `Delivery '${id}' not found`);
    return row;
  }

  /** Forgets finished deliveries older than the retention, of every organization (the `jobs.prune` pass); pending ones are kept whatever their age. */
  async prune(retentionMs: number): Promise<number> {
    return new WebhookStore(this.store.db).pruneFinishedAcrossOrganizations(this.now() - retentionMs);
  }

  /** Queues another round of attempts for a finished delivery; a pending one is left alone. */
  async retry(org: OrgTenancy, id: string): Promise<{ queued: boolean; message: string }> {
    const current = await this.getDelivery(org, id);
    if (current.status === "pending") return { queued: false, message: "The delivery is already pending" };
    const rearmed = await this.store.transaction(async (tx) => {
      const row = await new WebhookStore(tx).rearm(org, id, this.options.maxAttempts, this.now());
      if (row) await this.queue.enqueue("webhook.deliver", { deliveryId: id, attempt: Number(row.attempts) + 1 }, { executor: tx });
      return row !== undefined;
    });
    if (!rearmed) return { queued: false, message: "The delivery is already pending" };
    return { queued: true, message: "Delivery queued" };
  }

  /** Sends a signed `webhook.test` event now and reports the receiver's answer; nothing is recorded. */
  async test(org: OrgTenancy): Promise<TestResult> {
    const endpoint = await new WebhookStore(this.store.db).getEndpoint(org);
    if (!endpoint) throw notRegistered();
    let secret: string | null = null;
    if (endpoint.signing_secret !== null) {
      const opened = this.secrets.open(endpoint.signing_secret);
      if (!opened.ok) return { delivered: false, statusCode: null, message: `SIGNING_SECRET_UNAVAILABLE: ${opened.reason}` };
      secret = opened.secret;
    }
    const id = newId();
    const body = Buffer.from(testEventBody(id, this.now()), "utf8");
    const result = await this.sender.send(endpoint.url, body, deliveryHeaders(id, WEBHOOK_TEST, body, secret));
    return result.ok
      ? { delivered: true, statusCode: result.statusCode, message: `Receiver answered HTTP ${result.statusCode}` }
      : { delivered: false, statusCode: result.statusCode, message: `${result.code}: ${result.message}` };
  }

  private validSecret(secret: string): string {
    const checked = checkSigningSecret(secret);
    if (!checked.ok) throw invalidInput(checked.reason);
    return checked.secret;
  }
}
