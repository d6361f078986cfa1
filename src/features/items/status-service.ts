import type { Store } from "../../platform/store/db.js";
import type { ResolvedDatabase } from "../databases/tenancy.js";
import { ItemStore } from "./store.js";

export interface StatusRow {
  id: string;
  indexing_status: string;
  error_code: string;
  message: string;
}

/** GET /context/status and v1's verify_processing: indexing states of items by public id. */
export class StatusService {
  constructor(private readonly store: Store) {}

  /** Statuses of ids in the resolved collection; a miss is errored / FILE_NOT_FOUND / ID not found. */
  async lookup(scope: ResolvedDatabase, ids: readonly string[], type?: "knowledge" | "memory" | "all"): Promise<StatusRow[]> {
    const corpus = type === "knowledge" || type === "memory" ? type : null;
    const rows = await new ItemStore(this.store.reader).statuses(scope, ids, corpus);
    const found = new Map(rows.map((r) => [r.source_id, r]));
    return ids.map((id) => {
      const r = found.get(id);
      return r
        ? { id, indexing_status: r.status, error_code: r.error_code ?? "", message: r.message ?? "" }
        : { id, indexing_status: "errored", error_code: "FILE_NOT_FOUND", message: "ID not found" };
    });
  }
}
