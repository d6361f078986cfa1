import type { DatabaseKind, DatabaseStatus } from "./database-types.js";

/** Rows of the tables the databases feature owns. */

export interface DatabasesTable {
  id: string;
  org_id: string;
  name: string;
  kind: DatabaseKind;
  status: DatabaseStatus;
  /** JSON array of schema field definitions. */
  metadata_schema: string;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface CollectionsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  database_id: string;
  name: string;
  created_at: number;
}
