import type { Store } from "../store/db.js";
import { displayPrefix, hashApiKey, newApiKey, newId } from "../util/ids.js";
import { OrgStore, type ApiKeyRow, type Organization } from "./store.js";

export interface Principal {
  readonly orgId: string;
  readonly keyId: string;
}

export interface CreatedKey {
  readonly key: string;
  readonly row: ApiKeyRow;
}

/** Organizations and API keys: creation, lookup by presented key, revocation, bootstrap. */
export class OrgService {
  private readonly orgs: OrgStore;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {
    this.orgs = new OrgStore(store.db);
  }

  async createOrganization(name: string): Promise<Organization> {
    const org = { id: newId(), name, created_at: this.now() };
    await this.orgs.createOrganization(org);
    return org;
  }

  async getOrganization(id: string): Promise<Organization | undefined> {
    return this.orgs.getOrganization(id);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.orgs.listOrganizations();
  }

  /** Creates a key; the raw key is returned once and only its hash is stored. */
  async createKey(orgId: string, name: string, rawKey: string = newApiKey()): Promise<CreatedKey> {
    const row: ApiKeyRow = {
      id: newId(),
      org_id: orgId,
      key_hash: hashApiKey(rawKey),
      prefix: displayPrefix(rawKey),
      name,
      created_at: this.now(),
      revoked_at: null,
      expires_at: null,
    };
    await this.orgs.insertKey(row);
    return { key: rawKey, row };
  }

  listKeys(orgId: string | null): Promise<ApiKeyRow[]> {
    return this.orgs.listKeys(orgId);
  }

  revokeKey(keyId: string): Promise<boolean> {
    return this.orgs.revokeKey(keyId, this.now());
  }

  /** The organization a presented key acts for, or null when it is unknown, revoked or expired. */
  async authenticate(rawKey: string): Promise<Principal | null> {
    const row = await this.orgs.findKeyByHash(hashApiKey(rawKey));
    if (!row || row.revoked_at !== null) return null;
    if (row.expires_at !== null && row.expires_at <= this.now()) return null;
    return { orgId: row.org_id, keyId: row.id };
  }

  /**
   * Each bootstrap key that does not exist yet gets its own new organization. Idempotent
   * across restarts and safe when several processes boot together (the hash is unique).
   */
  async bootstrap(keys: readonly string[]): Promise<number> {
    let created = 0;
    for (const key of keys) {
      if (await this.orgs.findKeyByHash(hashApiKey(key))) continue;
      try {
        await this.store.transaction(async (tx) => {
          const orgs = new OrgStore(tx);
          const org = { id: newId(), name: "bootstrap", created_at: this.now() };
          await orgs.createOrganization(org);
          await orgs.insertKey({
            id: newId(),
            org_id: org.id,
            key_hash: hashApiKey(key),
            prefix: displayPrefix(key),
            name: "bootstrap",
            created_at: this.now(),
            revoked_at: null,
            expires_at: null,
          });
        });
        created += 1;
      } catch (err) {
        // Another process inserted the same key first: that is the outcome we wanted.
        if (!(await this.orgs.findKeyByHash(hashApiKey(key)))) throw err;
      }
    }
    return created;
  }
}
