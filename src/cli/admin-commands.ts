// Operator commands: they open the store named by the service's own configuration (DATA_DIR,
// DATABASE_URL, ...) directly, manage every organization, and so run in system scope.
import type { Command } from "commander";
import { describeConfig, loadConfig } from "../platform/config.js";
import type { OrgService } from "../features/organizations/service.js";
import type { Store } from "../platform/store/db.js";
import type { StoreSpace } from "../platform/store/compact.js";
import { CommandFailure, UsageError, type Output } from "./output.js";

type OutputOf = (command: Command) => Output;

/** Runs `work` on the configured store, migrated, in system scope; closes the store afterwards. */
export async function withOperatorStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Loaded on use: the client commands, which never open a store, start without the drivers.
  const [{ openStore }, { migrate }, { inSystemScope }] = await Promise.all([
    import("../platform/store/db.js"),
    import("../platform/store/migrate.js"),
    import("../platform/store/row-scope.js"),
  ]);
  return inSystemScope(async () => {
    const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    try {
      await migrate(store);
      return await work(store);
    } finally {
      await store.close();
    }
  });
}

/** Compacts the store (compact.ts), with its size before and after. */
async function compactReporting(): Promise<{ before: StoreSpace; after: StoreSpace }> {
  const { compactStore, storeSpace } = await import("../platform/store/compact.js");
  try {
    return await withOperatorStore(async (store) => {
      const before = await storeSpace(store);
      await compactStore(store);
      return { before, after: await storeSpace(store) };
    });
  } catch (err) {
    // Opening (migrations) and VACUUM need the SQLite file's write lock; they waited busy_timeout (10 s).
    if (err instanceof Error && "code" in err && err.code === "SQLITE_BUSY")
      throw new CommandFailure("the store is in use by another process (the service?): stop it, then run `store compact` again");
    throw err;
  }
}

/** Runs `work` with the organization service over the operator's store. */
async function withOrgs<T>(work: (orgs: OrgService) => Promise<T>): Promise<T> {
  const { OrgService } = await import("../features/organizations/service.js");
  return withOperatorStore((store) => work(new OrgService(store)));
}

/** `key create` without --org: the only organization, or a new one on an empty store. */
async function soleOrganization(orgs: OrgService): Promise<string> {
  const all = await orgs.listOrganizations();
  if (all.length > 1) throw new UsageError("--org is required: there are several organizations (see `org list`)");
  return all[0]?.id ?? (await orgs.createOrganization("default")).id;
}

export function registerAdminCommands(program: Command, outputOf: OutputOf): void {
  program
    .command("config")
    .description("show the configuration the service would use")
    .action((_options: object, command: Command) => {
      const shown = describeConfig(loadConfig());
      outputOf(command).emit(JSON.stringify(shown, null, 2), shown);
    });

  program
    .command("store")
    .description("the configured store (operator)")
    .command("compact")
    .description("return the store's free space to the file system (SQLite: VACUUM, with the service stopped; PostgreSQL: VACUUM ANALYZE)")
    .action(async (_options: object, command: Command) => {
      const { before, after } = await compactReporting();
      const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`;
      const free = before.freeBytes === null ? "" : `, of which ${mb(before.freeBytes)} free pages`;
      outputOf(command).emit(`store: ${mb(before.bytes)}${free}; after compacting: ${mb(after.bytes)}`, { before, after });
    });

  const org = program.command("org").description("organizations (operator: opens the configured store)");
  org
    .command("create")
    .description("create an organization (prints its id)")
    .option("--name <name>", "its name", "organization")
    .action(async (options: { name: string }, command: Command) => {
      const created = await withOrgs((orgs) => orgs.createOrganization(options.name));
      outputOf(command).emit(created.id, created);
    });
  org
    .command("list")
    .description("list organizations")
    .action(async (_options: object, command: Command) => {
      const list = await withOrgs((orgs) => orgs.listOrganizations());
      outputOf(command).emit(list.map((o) => `${o.id}\t${o.name}\t${new Date(o.created_at).toISOString()}`).join("\n"), list);
    });

  const key = program.command("key").description("API keys (operator: opens the configured store)");
  key
    .command("create")
    .description("create an API key (printed once; only its hash is stored); without --org: for the only organization, or a new 'default' one")
    .option("--org <org-id>", "the organization")
    .option("--name <name>", "a label", "cli")
    .action(async (options: { org?: string; name: string }, command: Command) => {
      const created = await withOrgs(async (orgs) => {
        const orgId = options.org ?? (await soleOrganization(orgs));
        if (!(await orgs.getOrganization(orgId))) throw new UsageError(`organization ${orgId} not found`);
        return orgs.createKey(orgId, options.name);
      });
      outputOf(command).emit(created.key, { key: created.key, id: created.row.id, org_id: created.row.org_id });
    });
  key
    .command("list")
    .description("list API keys (id, organization, prefix, state)")
    .option("--org <org-id>", "only this organization's")
    .action(async (options: { org?: string }, command: Command) => {
      const keys = await withOrgs(async (orgs) => {
        if (options.org !== undefined && !(await orgs.getOrganization(options.org))) throw new UsageError(`organization ${options.org} not found`);
        return orgs.listKeys(options.org ?? null);
      });
      const rows = keys.map((k) => ({
        id: k.id,
        org_id: k.org_id,
        name: k.name,
        prefix: k.prefix,
        state: k.revoked_at === null ? "active" : "revoked",
        created_at: new Date(k.created_at).toISOString(),
      }));
      outputOf(command).emit(rows.map((r) => `${r.id}\t${r.org_id}\t${r.name}\t${r.prefix}…\t${r.state}`).join("\n"), rows);
    });
  key
    .command("revoke")
    .description("revoke an API key")
    .requiredOption("--id <key-id>", "the key's id (see `key list`)")
    .action(async (options: { id: string }, command: Command) => {
      const revoked = await withOrgs((orgs) => orgs.revokeKey(options.id));
      if (!revoked) throw new UsageError(`no active key with id ${options.id}`);
      outputOf(command).emit(`revoked ${options.id}`, { id: options.id, revoked: true });
    });
}
