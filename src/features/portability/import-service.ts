import { AppError } from "../../platform/errors/app-error.js";
import { JobQueue } from "../../platform/jobs/queue.js";
import type { Executor, Store } from "../../platform/store/db.js";
import { graphJobKey, ingestJobKey } from "../ingestion/service.js";
import type { SecretBox } from "../webhooks/secret-box.js";
import { generateSigningSecret } from "../webhooks/signing.js";
import { ArchiveReader, type Manifest } from "./archive.js";
import { recreateDerivedIndexes } from "./derived-indexes.js";
import { WEBHOOK_TABLE } from "./export-service.js";
import { chooseOrganization } from "./organization-choice.js";
import { databaseIdTaken, findLiveDatabase, insertRows, schemaLevel, unfinishedItems, webhookEndpoint } from "./portability-store.js";
import { RowCopier } from "./row-copier.js";
import { DATABASE_TABLES } from "./table-plan.js";

export interface ImportRequest {
  readonly file: string;
  readonly orgId?: string;
  /** The database's name in the target; the archive's when absent. */
  readonly as?: string;
}

export interface ImportResult {
  readonly database: { readonly id: string; readonly name: string; readonly org_id: string };
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
  /** Seals the new webhook signing secret (WEBHOOK_SECRET_KEY). */
  readonly webhookSecrets: SecretBox;
  readonly now?: () => number;
}

async function checkTarget(target: ImportTarget, manifest: Manifest, orgId: string, name: string): Promise<void> {
  const level = await schemaLevel(target.store.db);
  if (manifest.schema_level !== level)
    throw new AppError(
      "INVALID_INPUT",
      `the archive was written at schema level ${manifest.schema_level} and this store is at ${level}: import with the version of context-store that exported it`,
    );
  if (await findLiveDatabase(target.store.db, orgId, name))
    throw new AppError("DATABASE_ALREADY_EXISTS", `database ${name} already exists in organization ${orgId}: import under another name with --as`);
  if (await databaseIdTaken(target.store.db, manifest.database.id))
    throw new AppError(
      "DATABASE_ALREADY_EXISTS",
      `this store already holds the archive's database (id ${manifest.database.id}): an archive is imported once per store (item and database ids are kept)`,
    );
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
 * transaction: a failure (or a refusal) leaves the store as it was. Database, item, chunk and
 * connector ids are kept (entity ids of the context graph are derived from the database id);
 * the organization and the store's serial keys are the target's.
 */
export async function importArchive(target: ImportTarget, request: ImportRequest): Promise<ImportResult> {
  const reader = await ArchiveReader.open(request.file);
  const { store } = target;
  const now = (target.now ?? Date.now)();
  try {
    const manifest = reader.manifest;
    const orgId = await chooseOrganization(store.db, request.orgId);
    const name = request.as ?? manifest.database.name;
    await checkTarget(target, manifest, orgId, name);
    const copier = new RowCopier(store.backend, target.dataDir, { orgId, databaseName: name, connectorsNeedCredentials: true, now });
    const queue = new JobQueue(store, () => now);
    try {
      const outcome = await store.transaction(async (tx) => {
        for (const plan of DATABASE_TABLES) {
          for await (const rows of reader.rows(plan.table)) await copier.copy(tx, plan.table, rows);
        }
        const requeued = await requeueUnfinished(tx, queue, manifest.database.id);
        const webhook = await restoreWebhook(tx, target, reader, orgId, now);
        return { requeued, webhook };
      });
      await recreateDerivedIndexes(store, target.dataDir);
      return {
        database: { id: manifest.database.id, name, org_id: orgId },
        counts: copier.counts,
        requeued: outcome.requeued,
        connectors_needing_credentials: copier.counts.connectors ?? 0,
        webhook: outcome.webhook,
      };
    } catch (err) {
      copier.discardFiles();
      throw err;
    }
  } finally {
    reader.close();
  }
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
