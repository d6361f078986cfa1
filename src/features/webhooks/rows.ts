/** Where a delivery stands: pending (attempts remain), completed (a 2xx), failed (given up). */
export type WebhookDeliveryStatus = "pending" | "completed" | "failed";

/** One registration per organization (`webhook_endpoints`). */
export interface WebhookEndpointsTable {
  org_id: string;
  url: string;
  /** JSON array of event kinds. */
  event_types: string;
  /** Sealed secret (platform/secrets/secret-box.ts); null when signing is disabled. */
  signing_secret: string | null;
  created_at: number;
  updated_at: number;
}

/** One event to deliver and its attempts so far (`webhook_deliveries`). */
export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  event_type: string;
  doc_id: string;
  database_name: string;
  collection: string;
  indexing_status: string;
  /** The exact JSON body sent on every attempt. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  max_attempts: number;
  /** Last delivery failure; empty strings when there is none. */
  error_code: string;
  error_message: string;
  last_status_code: number | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}
