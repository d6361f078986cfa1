import { invalidInput } from "../../platform/errors/app-error.js";
import type { WebhookDeliveryStatus } from "./rows.js";
import type { DeliveryRow, EndpointRow } from "./store.js";

export interface RegistrationView {
  registered: boolean;
  url: string | null;
  event_types: string[];
  signing_secret_configured: boolean;
}

export function registrationView(row: EndpointRow | undefined): RegistrationView {
  return {
    registered: row !== undefined,
    url: row?.url ?? null,
    event_types: row ? (JSON.parse(row.event_types) as string[]) : [],
    signing_secret_configured: row?.signing_secret != null,
  };
}

/** The delivery record of the interface; `error_*` describe the last failed attempt. */
export function deliveryView(row: DeliveryRow): Record<string, unknown> {
  return {
    delivery_id: row.id,
    doc_id: row.doc_id,
    event_type: row.event_type,
    indexing_status: row.indexing_status,
    status: row.status,
    attempts: Number(row.attempts),
    error_code: row.error_code,
    error_message: row.error_message,
    created_at: new Date(Number(row.created_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
    database: row.database_name,
    collection: row.collection,
    last_status_code: row.last_status_code,
  };
}

// The SDK documents `delivered` and `permanently_failed`; they name our `completed` and `failed`.
const STATUS_FILTERS: Readonly<Record<string, WebhookDeliveryStatus>> = {
  pending: "pending",
  completed: "completed",
  delivered: "completed",
  failed: "failed",
  permanently_failed: "failed",
};

export function parseStatusFilter(raw: string | undefined | null): WebhookDeliveryStatus | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const status = STATUS_FILTERS[raw.toLowerCase()];
  if (!status) throw invalidInput(`'status' must be one of ${Object.keys(STATUS_FILTERS).join(", ")}`);
  return status;
}

/** Opaque cursor: the position of the last row of a page. */
export const encodeCursor = (row: DeliveryRow): string => Buffer.from(JSON.stringify([Number(row.created_at), row.id])).toString("base64url");

export function decodeCursor(raw: string | undefined | null): { createdAt: number; id: string } | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parsed) && typeof parsed[0] === "number" && typeof parsed[1] === "string") {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // Not base64url JSON: refused below, as every malformed cursor is.
  }
  throw invalidInput("'cursor' is not a cursor returned by this endpoint");
}
