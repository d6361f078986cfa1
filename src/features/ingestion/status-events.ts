import type { Executor } from "../../platform/store/db.js";
import type { IndexingStatus } from "../items/item-types.js";

export interface StatusChange {
  orgId: string;
  database: string;
  collection: string;
  itemId: string;
  indexingStatus: IndexingStatus;
  errorCode: string | null;
  errorMessage: string | null;
  /** Chunks stored with this change (on the way to searchable); 0 otherwise. */
  chunkCount: number;
}

/**
 * Called inside the transaction that writes an item's new status, so whatever a listener
 * records (a webhook delivery) commits or rolls back together with the status itself.
 */
export type StatusListener = (tx: Executor, change: StatusChange) => Promise<void>;
