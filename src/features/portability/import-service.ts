import { AppError } from "../../platform/errors/app-error.js";
import { JobQueue } from "../../platform/jobs/queue.js";
import type { Executor, Store } from "../../platform/store/db.js";
import { graphJobKey, ingestJobKey } from "../ingestion/service.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { generateSigningSecret } from "../webhooks/signing.js";
import { OrgService } from "../organizations/service.js";
import { ArchiveIds } from "./archive-ids.js";
import { ArchiveReader, type Manifest } from "./archive.js";
import { recreateDerivedIndexes } from "./derived-indexes.js";
import { WEBHOOK_TABLE } from "./export-service.js";
import { chooseOrganization, type OrganizationChoice, type OrganizationHint } from "./organization-choice.js";
import { findLiveDatabase, insertRows, schemaLevel, tableColumns, unfinishedItems, webhookEndpoint, type ColumnInfo } from "./portability-store.js";
import { RowCopier } from "./row-copier.js";
import { DATABASE_TABLES } from "./table-plan.js";

export interface ImportRequest extends OrganizationHint {
  readonly file: string;
  /** The database's name in the target; the archive's when absent. */
  readonly as?: string;
}

/** The organization imported into; `created` when the store had none (with its first API key, shown once). */
export interface ImportedOrganization {
  readonly id: string;
  readonly how: OrganizationChoice["how"] | "created";
  readonly new_api_key: string | null;
}

export interface ImportResult {
  /** The new database: its id is new in this store (so are its items', files', chunks', connectors' and graphs'). */
  readonly database: { readonly id: string; readonly name: string; readonly org_id: string };
  readonly organization: ImportedOrganization;
  /** The imported connectors' ids in this store, by their id in the archive. */
  readonly connector_ids: Readonly<Record<string, string>>;
  readonly counts: Readonly<Record<string, number>>;
  /** Items whose indexing had not ended at export: their pipeline jobs were enqueued again. */
  readonly requeued: number;
  /** Connectors imported paused and needing new credentials. */
  readonly connectors_needing_credentials: number;
  /** The webhook registration: created with a new signing secret (printed once), or the target's kept. */
  readonly webhook: { readonly registered: boolean; readonly url: string | null; readonly new_signing_secret: string | null };
}

export interface ImportTarget {
  readonly store: Store;
  readonly dataDir: string;
  /** Seals the new webhook signing secret under the store's master key. */
  readonly webhookSecrets: SecretBox;
  readonly now?: () => number;
}

async function checkSchemaLevel(target: ImportTarget, manifest: Manifest): Promise<void> {
  const level = await schemaLevel(target.store.db);
  if (manifest.schema_level !== level)
    throw new AppError(
      "INVALID_INPUT",
      `the archive was written at schema level ${manifest.schema_level} and this store is at ${level}: import with the version of context-store that exported it`,
    );
}

async function checkNameFree(target: ImportTarget, orgId: string, name: string): Promise<void> {
  if (await findLiveDatabase(target.store.db, orgId, name))
    throw new AppError("DATABASE_ALREADY_EXISTS", `database ${name} already exists in organization ${orgId}: import under another name with --as`);
}

/** The target's columns of each table, read once. */
function columnsOf(target: ImportTarget): (table: string) => Promise<readonly ColumnInfo[]> {
  const cache = new Map<string, Promise<ColumnInfo[]>>();
  return (table) => {
    let columns = cache.get(table);
    if (!columns) cache.set(table, (columns = tableColumns(target.store.db, target.store.backend, table)));
    return columns;
  };
}

/** Enqueues the pipeline job of every item whose indexing had not ended when it was exported. */
async function requeueUnfinished(tx: Executor, queue: JobQueue, databaseId: string): Promise<number> {
  const items = await unfinishedItems(tx, databaseId);
  const graph = items.filter((i) => i.status === "graph_creation");
  const ingest = items.filter((i) => i.status !== "graph_creation");
  const job = (key: (id: string, generation: number) => string) => (i: { id: string; generation: number }) => ({
    payload: { itemId: i.id, generation: i.generation },
    dedupeKey: key(i.id, i.generation),
  });
  await queue.enqueueMany("ingest.item", ingest.map(job(ingestJobKey)), { executor: tx });
  await queue.enqueueMany("ingest.graph", graph.map(job(graphJobKey)), { executor: tx });
  return items.length;
}

/**
 * Restores an archive into the target store as a new database of one organization, in one
 * transaction: a failure (or a refusal) leaves the store as it was. Every row is checked first,
 * before anything is written (archive-ids.ts), and every id the service generated is new in the
 * target: the database's, its items', files', chunks', connectors' and graphs' (the context
 * graph's entity and relationship ids are derived for the new database). Source ids, names and
 * contents are kept; the store's serial keys are the target's. A store with no organization gets
 * its first one ("default", with an API key shown once) in the same transaction.
 */
export async function importArchive(target: ImportTarget, request: ImportRequest): Promise<ImportResult> {
  const reader = await ArchiveReader.open(request.file);
  const { store } = target;
  const now = (target.now ?? Date.now)();
  try {
    const manifest = reader.manifest;
    await checkSchemaLevel(target, manifest);
    const ids = await ArchiveIds.read(reader, columnsOf(target));
    const chosen = await chooseOrganization(store, request);
    const name = request.as ?? manifest.database.name;
    if (chosen !== null) await checkNameFree(target, chosen.id, name);
    const queue = new JobQueue(store, () => now);
    let copier: RowCopier | null = null;
    try {
      const outcome = await store.transaction(async (tx) => {
        const organization = chosen ? { id: chosen.id, how: chosen.how, new_api_key: null } : await createOrganization(tx, store, now);
        copier = new RowCopier(store.backend, target.dataDir, { orgId: organization.id, databaseName: name, connectorsNeedCredentials: true, now, ids });
        for (const plan of DATABASE_TABLES) {
          for await (const rows of reader.rows(plan.table)) await copier.copy(tx, plan.table, rows);
        }
        const requeued = await requeueUnfinished(tx, queue, ids.databaseId);
        const webhook = await restoreWebhook(tx, target, reader, organization.id, now);
        return { requeued, webhook, organization, counts: copier.counts };
      });
      await recreateDerivedIndexes(store, target.dataDir);
      return {
        database: { id: ids.databaseId, name, org_id: outcome.organization.id },
        organization: outcome.organization,
        connector_ids: Object.fromEntries(ids.connectors),
        counts: outcome.counts,
        requeued: outcome.requeued,
        connectors_needing_credentials: outcome.counts.connectors ?? 0,
        webhook: outcome.webhook,
      };
    } catch (err) {
      (copier as RowCopier | null)?.discardFiles();
      throw err;
    }
  } finally {
    reader.close();
  }
}

/** The store's first organization, made by the import (as the service's first start would). */
async function createOrganization(tx: Executor, store: Store, now: number): Promise<ImportedOrganization> {
  const first = await new OrgService(store, () => now).createFirstOrganizationIn(tx, "import");
  if (first === null)
    throw new AppError("INVALID_INPUT", "the store's first organization was made by another process meanwhile: run the import again (or name one with --org)");
  return { id: first.org.id, how: "created", new_api_key: first.key };
}

async function restoreWebhook(tx: Executor, target: ImportTarget, reader: ArchiveReader, orgId: string, now: number): Promise<ImportResult["webhook"]> {
  let exported: Record<string, unknown> | undefined;
  for await (const rows of reader.rows(WEBHOOK_TABLE)) exported = rows[0];
  const existing = await webhookEndpoint(tx, orgId);
  if (!exported || existing) return { registered: false, url: existing ? String(existing.url) : null, new_signing_secret: null };
  const secret = exported.signed === true ? generateSigningSecret() : null;
  await insertRows(tx, "webhook_endpoints", [
    {
      org_id: orgId,
      url: exported.url,
      event_types: exported.event_types,
      signing_secret: secret === null ? null : target.webhookSecrets.seal(secret),
      created_at: exported.created_at ?? now,
      updated_at: now,
    },
  ]);
  return { registered: true, url: String(exported.url), new_signing_secret: secret };
}
