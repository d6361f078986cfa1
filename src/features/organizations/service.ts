import type { Executor, Store } from "../../platform/store/db.js";
import { SettingsStore } from "../../platform/store/settings.js";
import { displayPrefix, hashApiKey, newApiKey, newId } from "../../platform/util/ids.js";
import { OrgStore, type ApiKeyRow, type Organization } from "./store.js";

export interface Principal {
  readonly orgId: string;
  readonly keyId: string;
}

export interface CreatedKey {
  readonly key: string;
  readonly row: ApiKeyRow;
}

export interface FirstOrganization extends CreatedKey {
  readonly org: Organization;
}

/** Claimed once per store by the process that creates the first organization. */
const FIRST_RUN_SETTING = "first_run_organization";

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
    const row = this.keyRow(orgId, name, rawKey);
    await this.orgs.insertKey(row);
    return { key: rawKey, row };
  }

  private keyRow(orgId: string, name: string, rawKey: string): ApiKeyRow {
    return {
      id: newId(),
      org_id: orgId,
      key_hash: hashApiKey(rawKey),
      prefix: displayPrefix(rawKey),
      name,
      created_at: this.now(),
      revoked_at: null,
      expires_at: null,
    };
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
   * First run: when the store has no organization at all, creates one ("default") with a key
   * and returns both, the raw key for the caller to show once. Returns null otherwise, and on
   * every later start. Several processes starting together on one store agree: each tries to
   * claim one settings row in its transaction and only the one whose value was stored goes on.
   */
  async createFirstOrganization(): Promise<FirstOrganization | null> {
    if (await this.orgs.hasOrganizations()) return null;
    return this.store.transaction((tx) => this.createFirstOrganizationIn(tx));
  }

  /**
   * `createFirstOrganization` in the caller's transaction (an import into a store that has no
   * organization yet creates it with the database it restores, or not at all).
   */
  async createFirstOrganizationIn(tx: Executor, keyName = "first-run"): Promise<FirstOrganization | null> {
    const orgs = new OrgStore(tx);
    const orgId = newId();
    const claimed = await new SettingsStore(tx).getOrCreate(FIRST_RUN_SETTING, () => orgId, this.now());
    if (claimed !== orgId || (await orgs.hasOrganizations())) return null;
    const org = { id: orgId, name: "default", created_at: this.now() };
    await orgs.createOrganization(org);
    const key = newApiKey();
    const row = this.keyRow(org.id, keyName, key);
    await orgs.insertKey(row);
    return { org, key, row };
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
          await orgs.insertKey(this.keyRow(org.id, "bootstrap", key));
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
