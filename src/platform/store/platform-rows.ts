/** Rows of the platform's own tables (not tenant data): migrations applied, store-wide settings. */

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

export interface SettingsTable {
  name: string;
  value: string;
  created_at: number;
}
