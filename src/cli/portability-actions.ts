// What `export`, `import` and `migrate` do (portability-commands.ts declares them and loads this
// module when one runs, so other commands start without the store drivers).
import { chmodSync, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { KEY_FILE } from "../platform/secrets/master-key.js";
import { loadConfig } from "../platform/config.js";
import { AppError } from "../platform/errors/app-error.js";
import { openStore, type Store } from "../platform/store/db.js";
import { migrate } from "../platform/store/migrate.js";
import { inSystemScope } from "../platform/store/row-scope.js";
import { exportDatabase } from "../features/portability/export-service.js";
import { importArchive, type ImportedOrganization } from "../features/portability/import-service.js";
import type { OrganizationHint } from "../features/portability/organization-choice.js";
import { migrateStore, type MigrateEndpoint } from "../features/portability/migrate-service.js";
import { pino } from "pino";
import { openSecrets } from "../platform/secrets/secrets.js";
import { withOperatorStore } from "./admin-commands.js";
import { UsageError, type Output } from "./output.js";

/** A refusal of the feature (coded) is the caller's to fix: shown as such, exit code 2. */
async function refusalsAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw new UsageError(`${err.code}: ${err.message}`);
    throw err;
  }
}

const isPostgres = (where: string): boolean => /^postgres(ql)?:\/\//.test(where);

/** Opens (and migrates) the store at a DATA_DIR path or a postgres:// URL. */
async function openAt(where: string): Promise<MigrateEndpoint> {
  const dataDir = isPostgres(where) ? resolve("./data") : resolve(where);
  if (!isPostgres(where)) mkdirSync(dataDir, { recursive: true });
  const store: Store = openStore({ databaseUrl: isPostgres(where) ? where : null, dataDir, poolSize: 2 });
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, dataDir, backend: store.backend };
}

const redacted = (where: string): string => (isPostgres(where) ? where.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@") : resolve(where));

/** The organization hint of an operator command: --org, else the API key (--api-key, CONTEXT_STORE_API_KEY). */
export interface OrganizationFlags {
  readonly org?: string;
  readonly apiKey?: string;
}

function hintOf(flags: OrganizationFlags): OrganizationHint {
  const key = flags.apiKey ?? process.env.CONTEXT_STORE_API_KEY;
  return { orgId: flags.org, apiKey: key === undefined || key.trim() === "" ? undefined : key.trim() };
}

const HOW: Readonly<Record<ImportedOrganization["how"], string>> = {
  option: "named with --org",
  key: "the API key's",
  only: "the store's only organization",
  created: "created now: the store had none",
};

export async function runExport(options: OrganizationFlags & { database: string; out: string }, out: Output): Promise<void> {
  const config = loadConfig();
  const { manifest, organization } = await refusalsAsUsage(() =>
    withOperatorStore((store) => exportDatabase(store, config.dataDir, { database: options.database, out: options.out, ...hintOf(options) })),
  );
  const rows = Object.entries(manifest.counts).map(([table, n]) => `${table}\t${n}`);
  out.emit(
    [`exported ${manifest.database.name} of organization ${organization.id} (${HOW[organization.how]}) to ${resolve(options.out)}`, ...rows].join("\n"),
    {
      file: resolve(options.out),
      organization,
      manifest,
    },
  );
}

export async function runImport(options: OrganizationFlags & { in: string; as?: string }, out: Output): Promise<void> {
  const config = loadConfig();
  const result = await refusalsAsUsage(() =>
    withOperatorStore(async (store) => {
      // The new webhook signing secret is sealed under the store's master key, as the service would.
      const secrets = await openSecrets(config, store.db, pino({ level: "silent" }), Date.now());
      return importArchive(
        { store, dataDir: config.dataDir, webhookSecrets: secrets.webhooks },
        { file: options.in, ...hintOf(options), ...(options.as ? { as: options.as } : {}) },
      );
    }),
  );
  const org = result.organization;
  const lines = [
    `imported ${result.database.name} (${result.database.id}) into organization ${org.id} (${HOW[org.how]})`,
    ...(org.new_api_key === null ? [] : [`its API key (shown once): ${org.new_api_key}`]),
    ...Object.entries(result.counts).map(([table, n]) => `${table}\t${n}`),
  ];
  if (result.requeued > 0) lines.push(`${result.requeued} item(s) were still indexing at export: their jobs were enqueued again`);
  if (result.connectors_needing_credentials > 0)
    lines.push(
      `${result.connectors_needing_credentials} connector(s) are paused and need new credentials (PATCH /connectors/{id}, then resume): ${Object.values(result.connector_ids).join(", ")}`,
    );
  if (result.webhook.new_signing_secret !== null)
    lines.push(`webhook ${result.webhook.url ?? ""} registered with a NEW signing secret (shown once): ${result.webhook.new_signing_secret}`);
  else if (result.webhook.registered) lines.push(`webhook ${result.webhook.url ?? ""} registered (unsigned, as exported)`);
  out.emit(lines.join("\n"), result);
}

/**
 * Sealed secrets move as they are, so the target needs the source's master key: from one data
 * directory to another the key file travels with them (0600, never over a key already there);
 * otherwise the operator starts the target with it, as the line returned says.
 */
function carryMasterKey(from: string, to: string): string {
  const source = isPostgres(from) ? null : join(resolve(from), KEY_FILE);
  const target = isPostgres(to) ? null : join(resolve(to), KEY_FILE);
  if (source !== null && target !== null && existsSync(source) && !existsSync(target)) {
    copyFileSync(source, target);
    chmodSync(target, 0o600);
    return `master key: ${source} copied to ${target}`;
  }
  const where = source ?? "the SECRET_KEY (or the DATA_DIR secret.key) of the source's processes";
  return `master key: start the target's processes with the source's, ${where} (SECRET_KEY, or the file in their DATA_DIR)`;
}

export async function runMigrate(options: { from: string; to: string }, out: Output): Promise<void> {
  if (resolve(options.from) === resolve(options.to) || options.from === options.to) throw new UsageError("--from and --to are the same store");
  const started = Date.now();
  const result = await refusalsAsUsage(() =>
    inSystemScope(async () => {
      const source = await openAt(options.from);
      try {
        const target = await openAt(options.to);
        try {
          return await migrateStore(source, target);
        } finally {
          await target.store.close();
        }
      } finally {
        await source.store.close();
      }
    }),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const lines = [
    `migrated ${redacted(options.from)} -> ${redacted(options.to)} in ${seconds} s (counts verified)`,
    ...result.tables.map((t) => `${t.table}\t${t.copied}`),
    carryMasterKey(options.from, options.to),
  ];
  out.emit(lines.join("\n"), { ...result, seconds: Number(seconds) });
}
