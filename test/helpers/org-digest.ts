import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Application } from "../../src/app.js";

/**
 * A digest of everything one organization has stored: every row of every table that carries an
 * `org_id` column (found by introspection, so a table added later is covered without editing
 * this list), plus the organization's own row. Rows are sorted before hashing, so the digest
 * does not depend on the order a backend returns them in.
 */
export class OrgDigest {
  private tables: string[] | null = null;

  constructor(private readonly app: Application) {}

  /** The tables holding organization data, for reports. */
  async tenantTables(): Promise<string[]> {
    if (this.tables === null) {
      const all = await this.app.store.db.introspection.getTables();
      this.tables = all
        .filter((t) => t.columns.some((c) => c.name === "org_id"))
        .map((t) => t.name)
        .sort();
      if (this.tables.length < 20) throw new Error(`only ${this.tables.length} tables carry org_id: introspection found ${all.length} tables`);
    }
    return this.tables;
  }

  /** The sorted rows of every tenant table for this organization, hashed. */
  async of(orgId: string): Promise<string> {
    if (this.app.store.backend === "postgres") return this.ofOnPostgres(orgId);
    const hash = createHash("sha256");
    for (const table of await this.tenantTables()) {
      const lines = await this.rowsOf(table, orgId);
      hash.update(`${table}:${lines.length}\n${lines.join("\n")}\n`);
    }
    const org = await sql<Record<string, unknown>>`SELECT * FROM organizations WHERE id = ${orgId}`.execute(this.app.store.db);
    hash.update(JSON.stringify(org.rows));
    return hash.digest("hex");
  }

  /**
   * PostgreSQL hashes in one round trip: each table's rows as text, sorted, md5'd on the server
   * (a statement per table would cost ~30 round trips per digest, too slow for one per request).
   */
  private async ofOnPostgres(orgId: string): Promise<string> {
    const parts = (await this.tenantTables()).map(
      (table) =>
        sql`SELECT ${table}::text AS name, count(*)::text AS n, md5(coalesce(string_agg(t::text, '\n' ORDER BY t::text), '')) AS h FROM ${sql.table(table)} t WHERE t.org_id = ${orgId}`,
    );
    const org = sql`SELECT 'organizations' AS name, count(*)::text AS n, md5(coalesce(string_agg(o::text, '\n'), '')) AS h FROM organizations o WHERE o.id = ${orgId}`;
    const rows = await sql<{ name: string; n: string; h: string }>`${sql.join([...parts, org], sql` UNION ALL `)}`.execute(this.app.store.db);
    return createHash("sha256")
      .update(rows.rows.map((r) => `${r.name}:${r.n}:${r.h}`).join("\n"))
      .digest("hex");
  }

  private async rowsOf(table: string, orgId: string): Promise<string[]> {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE org_id = ${orgId}`.execute(this.app.store.db);
    return rows.rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : Buffer.isBuffer(v) ? v.toString("base64") : v)))
      .sort();
  }

  /** Per-table digests, to name what changed when the whole digest differs. */
  async byTable(orgId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const table of await this.tenantTables()) {
      const lines = await this.rowsOf(table, orgId);
      out[table] = `${lines.length} rows ${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12)}`;
    }
    return out;
  }
}

/** The tables whose digests differ between two byTable snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}
