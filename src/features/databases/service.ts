import { AppError, databaseExists, databaseNotFound, forbidden, invalidInput } from "../../platform/errors/app-error.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import { isUniqueViolation } from "../../platform/store/errors.js";
import type { DatabaseKind } from "./database-types.js";
import { newId } from "../../platform/util/ids.js";
import { labelProblem, NAME_MAX_LENGTH, nameProblem, normalizeName } from "../../platform/util/identifiers.js";
import { mergeSchemaFields, parseMetadataSchema, type SchemaField } from "./metadata-schema.js";
import { DatabaseStore, type DatabaseRow } from "./store.js";

/** Names of collections a subsystem keeps outside the `collections` table (graph collections). */
export type CollectionLister = (database: DatabaseRow) => Promise<string[]>;

/** `data.infra` of the status routes; each flag is computed by DatabaseReadiness. */
export interface Infra {
  ready_for_ingestion: boolean;
  scheduler_status: boolean;
  graph_status: boolean;
  vectorstore_status: { knowledge: boolean; memories: boolean };
}

export interface DatabaseView {
  database: string;
  kind: DatabaseKind;
  status: string;
  database_metadata_schema: SchemaField[];
  created_at: string;
  updated_at: string;
}

/** Legacy and v2 routes share these rules; `legacy` only changes the error codes' names. */
export interface NamingOptions {
  legacy?: boolean;
}

/** Database names follow the shared name rules (util/identifiers.ts); the name returned is the normalised one. */
export function validateDatabaseName(name: unknown, field = "database"): string {
  if (typeof name !== "string") throw invalidInput(`'${field}' must be a string`);
  const normal = normalizeName(name);
  const problem = nameProblem(normal);
  if (problem) throw invalidInput(`'${field}' ${problem}`);
  return normal;
}

export function viewOf(row: DatabaseRow): DatabaseView {
  return {
    database: row.name,
    kind: row.kind,
    status: row.status,
    database_metadata_schema: JSON.parse(row.metadata_schema) as SchemaField[],
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The name a request gets when it omits `collection`. */
export const defaultCollectionOf = (row: DatabaseRow): string => row.name;

export class DatabaseService {
  private readonly databases: DatabaseStore;

  constructor(
    private readonly store: Store,
    private readonly queue: JobQueue,
    private readonly limits: { maxDatabasesPerOrg: number },
    /** Subsystems whose collections live in their own tables add them to collection listings. */
    private readonly collectionListers: readonly CollectionLister[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.databases = new DatabaseStore(store.db);
  }

  async create(orgId: string, rawName: string, rawSchema: unknown, kind: DatabaseKind = "context", opts: NamingOptions = {}): Promise<DatabaseRow> {
    // Every way in (/databases, /tenants, /byog) meets the name rules, in NFC: two spellings of
    // one name are one database. The spec leaves graph database names free of the URL-character restriction.
    const name = normalizeName(rawName);
    const problem = kind === "graph" ? labelProblem(name, NAME_MAX_LENGTH) : nameProblem(name);
    if (problem) throw invalidInput(`'database' ${problem}`);
    const schema = parseMetadataSchema(rawSchema);
    const at = this.now();
    const row: DatabaseRow = {
      id: newId(),
      org_id: orgId,
      name,
      kind,
      // Graph-area databases need no provisioning: they are ready at once.
      status: kind === "graph" ? "ready" : "provisioning",
      metadata_schema: JSON.stringify(schema),
      error: null,
      created_at: at,
      updated_at: at,
    };
    try {
      await this.store.transaction(async (tx) => {
        const dbs = new DatabaseStore(tx);
        await dbs.lockCreation(orgId, this.store.backend);
        if ((await dbs.countLive(orgId)) >= this.limits.maxDatabasesPerOrg) {
          throw forbidden(`This organization may not create more than ${this.limits.maxDatabasesPerOrg} databases`);
        }
        await dbs.insert(row);
        if (kind === "context") {
          await dbs.ensureCollection(row, defaultCollectionOf(row), at);
          await this.queue.enqueue("database.provision", { databaseId: row.id }, { executor: tx });
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw opts.legacy ? new AppError("TENANT_ALREADY_EXISTS", `Tenant '${name}' already exists`) : databaseExists(name);
      }
      throw err;
    }
    return row;
  }

  /** The live database or 404; other organizations' databases are indistinguishable from missing ones. */
  async get(orgId: string, name: string, opts: NamingOptions = {}): Promise<DatabaseRow> {
    // By its NFC form, as created; then as spelt, for a database created before names were normalised.
    const normal = normalizeName(name);
    const row = (await this.databases.findLive(orgId, normal)) ?? (normal === name ? undefined : await this.databases.findLive(orgId, name));
    if (!row) throw opts.legacy ? new AppError("TENANT_NOT_FOUND", `Tenant '${name}' not found`) : databaseNotFound(name);
    return row;
  }

  list(orgId: string, kind?: DatabaseKind): Promise<DatabaseRow[]> {
    return this.databases.listLive(orgId, kind);
  }

  /** Marks the database deleted (its name is free at once) and purges its data in a job. */
  async delete(orgId: string, name: string, opts: NamingOptions = {}): Promise<DatabaseRow> {
    const row = await this.get(orgId, name, opts);
    await this.store.transaction(async (tx) => {
      await new DatabaseStore(tx).setStatus(row.id, "deleting", this.now());
      await this.queue.enqueue("database.delete", { databaseId: row.id }, { executor: tx });
    });
    return row;
  }

  async collections(orgId: string, name: string, opts: NamingOptions = {}): Promise<string[]> {
    const row = await this.get(orgId, name, opts);
    const names = await this.databases.listCollections(row.id);
    for (const list of this.collectionListers) {
      for (const n of await list(row)) if (!names.includes(n)) names.push(n);
    }
    return names;
  }

  async ensureCollection(row: DatabaseRow, collection: string): Promise<void> {
    await this.databases.ensureCollection(row, collection, this.now());
  }

  /** Takes a collection out of the listing (its data is gone: CollectionDeletion). */
  async removeCollection(row: DatabaseRow, collection: string): Promise<void> {
    await this.databases.deleteCollection(row, collection);
  }

  async addSchemaFields(orgId: string, name: string, rawFields: unknown): Promise<DatabaseRow> {
    const row = await this.get(orgId, name);
    const added = parseMetadataSchema(rawFields);
    const merged = mergeSchemaFields(JSON.parse(row.metadata_schema) as SchemaField[], added);
    const json = JSON.stringify(merged);
    await this.databases.setSchema(row.id, json, this.now());
    return { ...row, metadata_schema: json };
  }

  // ---- job handler (database.delete runs DatabasePurge) ---------------------------------

  async provision(databaseId: string): Promise<void> {
    const row = await this.databases.getByIdAcrossOrganizations(databaseId);
    if (!row || row.status !== "provisioning") return; // deleted meanwhile, or already done
    await this.databases.setStatus(row.id, "ready", this.now());
  }
}
