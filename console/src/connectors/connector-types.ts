// The connector answers the screens read, named once from the generated API types.
import type { paths } from "../../../src/client/api-types.js";

type Ok<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;

export type Connector = Ok<"/connectors/{id}", "get">;
export type ConnectorStatus = Ok<"/connectors/{id}/status", "get">;

/** The fields of a configured resource the screens show. */
export interface ConnectorResource {
  readonly resource_id: string;
  readonly resource_type: string;
  readonly display_name: string;
  readonly provider_cursor: string;
  readonly collection_override: string | null;
  readonly backfill_status: string;
}
