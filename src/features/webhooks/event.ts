import { signatureOf } from "./signing.js";

export const INDEXING_STATUS_CHANGED = "indexing.status_changed";
/** Sent by POST /webhooks/indexing/test only; never recorded as a delivery. */
export const WEBHOOK_TEST = "webhook.test";
export const EVENT_TYPES: readonly string[] = [INDEXING_STATUS_CHANGED];

export interface IndexingEvent {
  readonly deliveryId: string;
  readonly itemId: string;
  readonly database: string;
  readonly collection: string;
  readonly indexingStatus: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly at: number;
}

/** The JSON body of an `indexing.status_changed` delivery; frozen when the event is recorded. */
export function indexingEventBody(e: IndexingEvent): string {
  return JSON.stringify({
    delivery_id: e.deliveryId,
    event_type: INDEXING_STATUS_CHANGED,
    item_id: e.itemId,
    doc_id: e.itemId,
    database: e.database,
    collection: e.collection,
    indexing_status: e.indexingStatus,
    error_code: e.errorCode,
    error_message: e.errorMessage,
    timestamp: new Date(e.at).toISOString(),
  });
}

export function testEventBody(deliveryId: string, at: number): string {
  return JSON.stringify({
    delivery_id: deliveryId,
    event_type: WEBHOOK_TEST,
    message: "Test delivery from the context store",
    timestamp: new Date(at).toISOString(),
  });
}

/** Headers of one delivery; the signature covers the exact bytes of `body`. */
export function deliveryHeaders(deliveryId: string, eventType: string, body: Uint8Array, secret: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Service-Delivery-ID": deliveryId,
    "X-Service-Event": eventType,
  };
  if (secret !== null) headers["X-Service-Signature"] = signatureOf(body, secret);
  return headers;
}
