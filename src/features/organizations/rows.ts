/** Rows of the tables the organizations feature owns. */

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  /** hex SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  /** first characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  expires_at: number | null;
}
