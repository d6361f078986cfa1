/** Rows of the platform's own tables (not tenant data): migrations applied, store-wide settings. */

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
  /** SHA-256 of the statements applied (migrations/checksum.ts); null until migrate() fills it in. */
  checksum: string | null;
}

export interface SettingsTable {
  name: string;
  value: string;
  created_at: number;
}
