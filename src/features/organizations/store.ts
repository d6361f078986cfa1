import type { Executor } from "../../platform/store/db.js";
import type { ApiKeysTable, OrganizationsTable } from "./rows.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";

export type Organization = OrganizationsTable;
export type ApiKeyRow = ApiKeysTable;

/** A key by its hash: every authenticated request's first read, compiled once (statement-templates.ts). */
const keyByHash = statementTemplate(
  () => "",
  (db, v: { hash: string }) => db.selectFrom("api_keys").selectAll().where("key_hash", "=", v.hash),
);

/** Organizations and their hashed API keys. One SQL implementation serves both backends. */
export class OrgStore {
  constructor(private readonly db: Executor) {}

  async createOrganization(org: Organization): Promise<void> {
    await this.db.insertInto("organizations").values(org).execute();
  }

  async getOrganization(id: string): Promise<Organization | undefined> {
    return this.db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async listOrganizations(): Promise<Organization[]> {
    return this.db.selectFrom("organizations").selectAll().orderBy("created_at").execute();
  }

  async hasOrganizations(): Promise<boolean> {
    return (await this.db.selectFrom("organizations").select("id").limit(1).executeTakeFirst()) !== undefined;
  }

  async insertKey(key: ApiKeyRow): Promise<void> {
    await this.db.insertInto("api_keys").values(key).execute();
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return (await keyByHash.run(this.db, { hash }))[0];
  }

  async listKeys(orgId: string | null): Promise<ApiKeyRow[]> {
    let q = this.db.selectFrom("api_keys").selectAll();
    if (orgId) q = q.where("org_id", "=", orgId);
    return q.orderBy("created_at").execute();
  }

  /** Returns true when a live key was revoked by this call. */
  async revokeKey(keyId: string, at: number): Promise<boolean> {
    const res = await this.db.updateTable("api_keys").set({ revoked_at: at }).where("id", "=", keyId).where("revoked_at", "is", null).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
