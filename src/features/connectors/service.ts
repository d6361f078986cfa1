import type { ResolvedDatabase } from "../databases/tenancy.js";
import { AppError, invalidInput } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { isUniqueViolation } from "../../platform/store/errors.js";
import { newId } from "../../platform/util/ids.js";
import { labelProblem, nameProblem, normalizeName } from "../../platform/util/identifiers.js";
import { checkCredentials, type CredentialVault, providerFailure, verifyCredentials } from "./credentials.js";
import { checkInstructions, checkJsonSize, checkLookback, MAX_RESOURCE_ADDITIONAL_BYTES, MAX_RESOURCE_METADATA_BYTES, resolveInterval } from "./limits.js";
import type { ConnectorProvider, Credentials } from "./provider.js";
import type { ProviderRegistry } from "./registry.js";
import { ConnectorStore, orgOf, type ConnectorRow, type ResourceRow } from "./store.js";
import { connectorView, resourceView, statusView } from "./views.js";

export interface CreateInput {
  provider: string;
  name?: string;
  providerAccountScope?: string;
  credentials: unknown;
  authType?: string;
  syncIntervalSeconds?: number;
  customInstructions?: string;
}

export interface PatchInput {
  syncIntervalSeconds?: number;
  credentials?: unknown;
  customInstructions?: string;
}

export interface ResourceInput {
  resourceId: string;
  resourceType?: string;
  name?: string;
  collection?: string;
  metadata?: Record<string, unknown>;
  additionalMetadata?: Record<string, unknown>;
  providerMetadata?: Record<string, unknown>;
  customInstructions?: string;
  acl?: string[];
  lookbackDays?: number;
}

export const connectorNotFound = (id: string): AppError => new AppError("CONNECTOR_NOT_FOUND", `Connector '${id}' not found`);
/** Collection names follow the shared name rules (util/identifiers.ts), as on every other way in. */
const COLLECTION = { test: (name: string): boolean => nameProblem(name) === null };

/** A display name as stored: trimmed, NFC; 400 when it holds what a reader cannot see or tell apart. */
function displayName(field: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = normalizeName(raw.trim());
  if (name === "") return undefined;
  const problem = labelProblem(name);
  if (problem) throw invalidInput(`'${field}' ${problem}`);
  return name;
}

/** The rules of the connector routes: records, credentials, resources. Syncing is in sync-control.ts. */
export class ConnectorService {
  constructor(
    private readonly store: Store,
    readonly providers: ProviderRegistry,
    private readonly vault: CredentialVault,
    private readonly now: () => number = Date.now,
  ) {}

  providerOf(id: string): ConnectorProvider {
    const provider = this.providers.get(id);
    if (!provider) {
      const known = this.providers
        .all()
        .filter((p) => p.provider)
        .map((p) => p.id);
      throw invalidInput(`unknown provider '${id}'; supported: ${known.join(", ")}`);
    }
    return provider;
  }

  async find(org: OrgTenancy, id: string): Promise<ConnectorRow> {
    const row = await new ConnectorStore(this.store.db).get(org, id);
    if (!row) throw connectorNotFound(id);
    return row;
  }

  credentialsOf(row: ConnectorRow): Credentials {
    const opened = this.vault.open(row.credentials);
    if (!opened.ok) throw new AppError("INTERNAL_ERROR", `the connector's credentials cannot be opened: ${opened.reason}`);
    return opened.credentials;
  }

  async view(row: ConnectorRow): Promise<Record<string, unknown>> {
    return connectorView(row, await new ConnectorStore(this.store.db).listResources(orgOf(row), row.id));
  }

  /** A connector feeding the database (and collection: its default unless one was named) resolved at the edge. */
  async create(at: ResolvedDatabase, input: CreateInput): Promise<Record<string, unknown>> {
    const provider = this.providerOf(input.provider);
    const d = provider.descriptor;
    const { database, collection } = at;
    if (!COLLECTION.test(collection)) throw invalidInput("invalid collection name");
    const name = displayName("name", input.name);
    if (input.authType !== undefined && input.authType !== d.authType) throw invalidInput(`auth_type for ${d.provider} must be '${d.authType}'`);
    const interval = resolveInterval(input.syncIntervalSeconds, d);
    const instructions = checkInstructions(input.customInstructions ?? "");
    const credentials = checkCredentials(provider, input.credentials);
    const account = await verifyCredentials(provider, credentials, this.now());
    const scope = input.providerAccountScope?.trim() || (d.accountScopeFromProvider ? account.accountScope : "");
    const now = this.now();
    const row: ConnectorRow = {
      id: newId(),
      org_id: at.orgId,
      database_id: database.id,
      database_name: database.name,
      collection,
      provider: d.provider,
      name: name ?? `${d.provider} ${account.accountLabel}`,
      provider_account_scope: scope,
      auth_type: d.authType,
      credentials: this.vault.seal(credentials),
      sync_interval_seconds: interval,
      next_sync_at: now,
      sync_state: "idle",
      run_id: null,
      run_reconcile: 0,
      sync_heartbeat_at: null,
      last_reconciled_at: null,
      last_successful_sync_at: null,
      last_attempted_sync_at: null,
      last_error: "",
      last_error_code: "",
      consecutive_failures: 0,
      documents_dispatched: 0,
      sync_cycles_completed: 0,
      needs_reauth: 0,
      needs_reauth_at: null,
      needs_reauth_reason: "",
      paused: 0,
      paused_at: null,
      custom_instructions: instructions,
      created_at: now,
      updated_at: now,
    };
    try {
      await new ConnectorStore(this.store.db).insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError("CONNECTOR_ALREADY_EXISTS", `a ${d.provider} connector for provider_account_scope '${scope}' already exists in this organization`);
      }
      throw err;
    }
    return connectorView(row, []);
  }

  async list(org: OrgTenancy, provider?: string): Promise<Record<string, unknown>[]> {
    const s = new ConnectorStore(this.store.db);
    const rows = await s.list(org, provider);
    return Promise.all(rows.map(async (r) => connectorView(r, await s.listResources(org, r.id))));
  }

  /** PATCH: everything is checked before anything changes (400/422 leave the record as it was). */
  async patch(org: OrgTenancy, id: string, input: PatchInput): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const provider = this.providerOf(row.provider);
    const d = provider.descriptor;
    const interval = input.syncIntervalSeconds === undefined ? undefined : resolveInterval(input.syncIntervalSeconds, d);
    const instructions = input.customInstructions === undefined ? undefined : checkInstructions(input.customInstructions);
    let sealed: string | undefined;
    if (input.credentials !== undefined) {
      const credentials = checkCredentials(provider, input.credentials);
      await verifyCredentials(provider, credentials, this.now());
      sealed = this.vault.seal(credentials);
    }
    const at = this.now();
    const set: Partial<ConnectorRow> = { updated_at: at };
    if (interval !== undefined) {
      set.sync_interval_seconds = interval;
      set.next_sync_at = (row.last_attempted_sync_at ?? at) + interval * 1000;
    }
    if (instructions !== undefined) set.custom_instructions = instructions;
    if (sealed !== undefined) {
      // New credentials clear the re-authentication state; id, resources and cursors stay.
      Object.assign(set, { credentials: sealed, needs_reauth: 0, needs_reauth_at: null, needs_reauth_reason: "", next_sync_at: at });
    }
    await new ConnectorStore(this.store.db).update(org, row.id, set);
    const next = set.next_sync_at ?? row.next_sync_at;
    return {
      connector_id: row.id,
      sync_interval_seconds: set.sync_interval_seconds ?? row.sync_interval_seconds,
      next_sync_at: next === null ? null : new Date(next).toISOString(),
      min_sync_interval_seconds: d.minSyncIntervalSeconds,
      max_sync_interval_seconds: d.maxSyncIntervalSeconds,
      ...(sealed !== undefined ? { credentials_updated: true } : {}),
      ...(instructions !== undefined ? { custom_instructions_updated: true } : {}),
    };
  }

  /** Deletes the connector with its resources, credentials and ledger; ingested items stay. */
  async delete(org: OrgTenancy, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    await new ConnectorStore(this.store.db).delete(org, row.id);
    return { connector_id: row.id, deleted: true };
  }

  async discover(org: OrgTenancy, id: string, page: { cursor: string | null; limit: number }): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const provider = this.providerOf(row.provider);
    try {
      const found = await provider.discover(this.credentialsOf(row), page, AbortSignal.timeout(60_000));
      return { connector_id: row.id, provider: row.provider, resources: found.resources, next_cursor: found.nextCursor, has_more: found.nextCursor !== null };
    } catch (err) {
      throw providerFailure(row.provider, err, this.now());
    }
  }

  /** Checks every resource at the provider before storing any (an unknown one: 400, nothing changed). */
  private async resourceRows(row: ConnectorRow, inputs: readonly ResourceInput[]): Promise<ResourceRow[]> {
    const provider = this.providerOf(row.provider);
    const d = provider.descriptor;
    const credentials = this.credentialsOf(row);
    const at = this.now();
    const out: ResourceRow[] = [];
    for (const [i, r] of inputs.entries()) {
      const type = r.resourceType ?? d.resourceTypes[0] ?? "";
      if (!d.resourceTypes.includes(type) && !(d.provider === "github" && type === "repo")) {
        throw invalidInput(`resources[${i}].resource_type must be one of ${d.resourceTypes.join(", ")} for ${d.provider}`);
      }
      const collection = r.collection === undefined ? undefined : normalizeName(r.collection);
      if (collection !== undefined && !COLLECTION.test(collection)) throw invalidInput(`resources[${i}]: invalid collection name`);
      const name = displayName(`resources[${i}].name`, r.name);
      const metadata = checkJsonSize(`resources[${i}].metadata`, r.metadata, MAX_RESOURCE_METADATA_BYTES);
      const additional = checkJsonSize(`resources[${i}].additional_metadata`, r.additionalMetadata, MAX_RESOURCE_ADDITIONAL_BYTES);
      if (r.customInstructions !== undefined) checkInstructions(r.customInstructions, `resources[${i}].custom_instructions`);
      const lookback = checkLookback(r.lookbackDays);
      let found;
      try {
        found = await provider.describeResource(credentials, type, r.resourceId, AbortSignal.timeout(30_000));
      } catch (err) {
        throw providerFailure(d.provider, err, at);
      }
      if (!found) throw invalidInput(`resource '${r.resourceId}' (${type}) was not found at ${d.provider} or is not visible to the connector's credentials`);
      out.push({
        connector_id: row.id,
        org_id: row.org_id,
        database_id: row.database_id,
        resource_id: found.id,
        resource_type: found.resource_type,
        display_name: name ?? found.name,
        collection_override: collection ?? null,
        metadata,
        additional_metadata: additional,
        provider_metadata: r.providerMetadata ? JSON.stringify(r.providerMetadata) : JSON.stringify(found.metadata),
        filters: JSON.stringify({ lookback_days: lookback }),
        custom_instructions: r.customInstructions ?? null,
        acl: r.acl ? JSON.stringify(r.acl.map((p) => p.toLowerCase())) : null,
        status: "active",
        provider_cursor: "",
        checkpoint: null,
        last_row_count: 0,
        message: "",
        checked_at: null,
        created_at: at,
        updated_at: at,
      });
    }
    return out;
  }

  /** Activates resources (upsert: re-configuring keeps cursors) and makes the connector due now. */
  async configure(org: OrgTenancy, id: string, resources: readonly ResourceInput[], lookbackDays: number | undefined): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const lookback = checkLookback(lookbackDays);
    const rows = await this.resourceRows(
      row,
      resources.map((r) => ({ ...r, lookbackDays: r.lookbackDays ?? lookback })),
    );
    await this.store.transaction(async (tx) => {
      const s = new ConnectorStore(tx);
      for (const r of rows) await s.upsertResource(r);
      await s.update(org, row.id, { next_sync_at: Math.min(row.next_sync_at ?? this.now(), this.now()), updated_at: this.now() });
    });
    return { connector_id: row.id, configured: rows.length, backfill: lookback > 30 };
  }

  async listResources(org: OrgTenancy, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    return { connector_id: row.id, resources: (await new ConnectorStore(this.store.db).listResources(org, row.id)).map(resourceView) };
  }

  async addResource(org: OrgTenancy, id: string, input: ResourceInput): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const s = new ConnectorStore(this.store.db);
    if (await s.getResource(org, row.id, input.resourceId))
      throw new AppError("CONNECTOR_CONFLICT", `resource '${input.resourceId}' is already configured on this connector`);
    const [resource] = await this.resourceRows(row, [input]);
    if (!resource) throw invalidInput("no resource given");
    await this.store.transaction(async (tx) => {
      await new ConnectorStore(tx).upsertResource(resource);
      await new ConnectorStore(tx).update(org, row.id, { next_sync_at: Math.min(row.next_sync_at ?? this.now(), this.now()), updated_at: this.now() });
    });
    return resourceView(resource);
  }

  /** Stops syncing the resource; its ingested items stay (and leave the deletion reconciliation). */
  async deleteResource(org: OrgTenancy, id: string, resourceId: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const deleted = await this.store.transaction(async (tx) => {
      const s = new ConnectorStore(tx);
      const ok = await s.deleteResource(org, row.id, resourceId);
      if (ok) await s.forgetResourceObjects(org, row.id, resourceId);
      return ok;
    });
    if (!deleted) throw new AppError("CONNECTOR_RESOURCE_NOT_FOUND", `resource '${resourceId}' is not configured on connector '${row.id}'`);
    return { connector_id: row.id, deleted: true, resource_id: resourceId };
  }

  async status(org: OrgTenancy, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    const resources = await new ConnectorStore(this.store.db).listResources(org, row.id);
    return statusView(row, resources, this.providerOf(row.provider).descriptor.resourceAccessAction);
  }
}
