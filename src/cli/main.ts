#!/usr/bin/env node
import { parseArgs } from "node:util";
import { ConfigError, describeConfig, loadConfig } from "../platform/config.js";
import { OrgService } from "../features/organizations/service.js";
import { openStore } from "../platform/store/db.js";
import { migrate } from "../platform/store/migrate.js";
import { inSystemScope } from "../platform/store/row-scope.js";

const USAGE = `context-store <command> [options]

Commands:
  org create --name <name>                 create an organization (prints its id)
  org list                                 list organizations
  key create [--org <org-id>] [--name <n>] create an API key (printed once; only its hash is stored);
                                           without --org: for the only organization, or a new
                                           "default" one when there is none
  key list [--org <org-id>]                list API keys (id, organization, prefix, state)
  key revoke --id <key-id>                 revoke an API key
  config                                   show the configuration the service would use

Configuration comes from the same environment variables as the service (DATA_DIR, DATABASE_URL, ...).
Add --json for machine-readable output.`;

type Out = (human: string, json: unknown) => void;

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      org: { type: "string" },
      id: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const out: Out = (human, json) => console.log(values.json ? JSON.stringify(json) : human);
  const [group, action] = positionals;
  if (values.help || !group) {
    console.log(USAGE);
    return group || values.help ? 0 : 2;
  }
  const config = loadConfig();
  if (group === "config") {
    out(JSON.stringify(describeConfig(config), null, 2), describeConfig(config));
    return 0;
  }
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(store);
    const orgs = new OrgService(store);
    const key = `${group} ${action ?? ""}`.trim();
    switch (key) {
      case "org create": {
        const org = await orgs.createOrganization(values.name ?? "organization");
        out(org.id, org);
        return 0;
      }
      case "org list": {
        const list = await orgs.listOrganizations();
        out(list.map((o) => `${o.id}\t${o.name}\t${new Date(o.created_at).toISOString()}`).join("\n"), list);
        return 0;
      }
      case "key create": {
        const orgId = values.org ?? (await soleOrganization(orgs));
        if (!(await orgs.getOrganization(orgId))) throw new UsageError(`organization ${orgId} not found`);
        const created = await orgs.createKey(orgId, values.name ?? "cli");
        out(created.key, { key: created.key, id: created.row.id, org_id: created.row.org_id });
        return 0;
      }
      case "key list": {
        const keys = await orgs.listKeys(values.org ?? null);
        const rows = keys.map((k) => ({
          id: k.id,
          org_id: k.org_id,
          name: k.name,
          prefix: k.prefix,
          state: k.revoked_at === null ? "active" : "revoked",
          created_at: new Date(k.created_at).toISOString(),
        }));
        out(rows.map((r) => `${r.id}\t${r.org_id}\t${r.name}\t${r.prefix}…\t${r.state}`).join("\n"), rows);
        return 0;
      }
      case "key revoke": {
        if (!values.id) throw new UsageError("--id is required");
        const revoked = await orgs.revokeKey(values.id);
        if (!revoked) throw new UsageError(`no active key with id ${values.id}`);
        out(`revoked ${values.id}`, { id: values.id, revoked: true });
        return 0;
      }
      default:
        throw new UsageError(`unknown command '${key}'`);
    }
  } finally {
    await store.close();
  }
}

class UsageError extends Error {}

/** `key create` without --org: the only organization, or a new one on an empty store. */
async function soleOrganization(orgs: OrgService): Promise<string> {
  const all = await orgs.listOrganizations();
  if (all.length > 1) throw new UsageError("--org is required: there are several organizations (see `org list`)");
  return all[0]?.id ?? (await orgs.createOrganization("default")).id;
}

// An operator's tool: it manages every organization, so it runs in system scope.
inSystemScope(() => run(process.argv.slice(2))).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ConfigError) {
      console.error(`context-store: ${err.message}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
