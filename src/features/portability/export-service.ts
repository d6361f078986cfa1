import { AppError } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, ArchiveWriter, type Manifest } from "./archive.js";
import { chooseOrganization, type OrganizationChoice, type OrganizationHint } from "./organization-choice.js";
import { findLiveDatabase, schemaLevel, webhookEndpoint, type PlainRow } from "./portability-store.js";
import { portablePages } from "./source-rows.js";
import { DATABASE_TABLES } from "./table-plan.js";

export interface ExportRequest extends OrganizationHint {
  readonly database: string;
  readonly out: string;
}

export interface ExportResult {
  readonly manifest: Manifest;
  readonly organization: OrganizationChoice;
}

/** The organization's webhook registration travels without its signing secret: only whether it had one. */
export const WEBHOOK_TABLE = "webhook_endpoint";

function withoutSecrets(table: string, row: PlainRow): PlainRow {
  return table === "connectors" ? { ...row, credentials: "" } : row;
}

/**
 * Writes one database of one organization to an archive, read in one snapshot (the service may
 * keep running: the archive is the state at the snapshot's start). Connector credentials and the
 * webhook signing secret are left out; jobs, the query log, feedback and webhook deliveries too.
 */
export async function exportDatabase(store: Store, dataDir: string, request: ExportRequest): Promise<ExportResult> {
  const organization = await chooseOrganization(store, request);
  if (organization === null) throw new AppError("NOT_FOUND", "the store has no organization, so no database to export");
  const orgId = organization.id;
  const database = await findLiveDatabase(store.db, orgId, request.database);
  if (!database) throw new AppError("DATABASE_NOT_FOUND", `database ${request.database} not found in organization ${orgId}`);
  const writer = new ArchiveWriter(request.out);
  try {
    const level = await store.snapshot(async (tx) => {
      for (const plan of DATABASE_TABLES) {
        await writer.startTable(plan.table);
        const filter: Record<string, string> = plan.table === "databases" ? { org_id: orgId, id: database.id } : { org_id: orgId, database_id: database.id };
        for await (const page of portablePages(tx, { backend: store.backend, dataDir }, plan, filter)) {
          await writer.write(page.map((row) => withoutSecrets(plan.table, row)));
        }
      }
      await writer.startTable(WEBHOOK_TABLE);
      const endpoint = await webhookEndpoint(tx, orgId);
      if (endpoint) {
        const { signing_secret: secret, ...rest } = endpoint;
        await writer.write([{ ...rest, signed: secret !== null }]);
      }
      return schemaLevel(tx);
    });
    const manifest = await writer.finish({
      format: ARCHIVE_FORMAT,
      format_version: ARCHIVE_FORMAT_VERSION,
      created_at: new Date().toISOString(),
      source_backend: store.backend,
      schema_level: level,
      database: { id: database.id, name: request.database, org_id: orgId },
    });
    return { manifest, organization };
  } finally {
    writer.discard();
  }
}
