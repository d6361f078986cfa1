// `connectors`: list (default), providers, create, discover, configure, sync, status, delete.
// The connector routes answer bare bodies (no envelope); the client passes them through as they are.
import type { Command } from "commander";
import { ApiError } from "../../client/api-client.js";
import { clientContext, jsonArgument, positiveInteger, requireDatabase, withConnectionOptions, type OutputOf } from "./client-context.js";
import { UsageError } from "../output.js";

const POLL_MS = 250;

interface CreateOptions {
  provider: string;
  credentials: string;
  name?: string;
  accountScope?: string;
  authType?: string;
  interval?: number;
}

interface ResourceEntry {
  resource_id: string;
  [key: string]: unknown;
}

function resourceList(value: unknown): ResourceEntry[] {
  const list = Array.isArray(value)
    ? (value as unknown[])
    : typeof value === "object" && value !== null
      ? (value as { resources?: unknown }).resources
      : undefined;
  if (!Array.isArray(list))
    throw new UsageError("--resources must be a JSON array of {resource_id, name?, collection?, metadata?, ...} (or an object with a resources array)");
  return list.map((entry, i) => {
    if (typeof entry !== "object" || entry === null || typeof (entry as { resource_id?: unknown }).resource_id !== "string") {
      throw new UsageError(`--resources[${i}] needs a string resource_id`);
    }
    return entry as ResourceEntry;
  });
}

export function registerConnectorCommands(program: Command, outputOf: OutputOf): void {
  const connectors = program
    .command("connectors")
    .description("connectors to Slack, GitHub, Linear, Notion, Gmail: list (default), providers, create, discover, configure, sync, status, delete");

  withConnectionOptions(connectors.command("list", { isDefault: true }).description("list connectors"), false).action(
    async (_options: object, command: Command) => {
      const { api, output } = clientContext(command, outputOf);
      const data = await api.call(api.raw.GET("/connectors"));
      const lines = data.connectors.map((c) => `${c.connector_id}\t${c.provider}\t${c.name}\t${c.database}/${c.collection}\t${c.lifecycle}\t${c.sync_status}`);
      output.emit(lines.join("\n") || "no connectors", data.connectors);
    },
  );

  withConnectionOptions(
    connectors.command("providers").description("the providers; with a name, its fields and credential requirements").argument("[provider]", "one provider"),
    false,
  ).action(async (provider: string | undefined, _options: object, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const data = await api.call(api.raw.GET("/connectors/providers", { params: { query: provider === undefined ? {} : { id: provider } } }));
    if ("providers" in data) output.emit(data.providers.map((p) => `${p.provider}\t${p.supported ? "supported" : "not supported"}`).join("\n"), data.providers);
    else output.emit(JSON.stringify(data, null, 2), data);
  });

  withConnectionOptions(
    connectors
      .command("create")
      .description("create a connector into --database (and --collection)")
      .requiredOption("--provider <provider>", "slack, github, linear, notion or gmail")
      .requiredOption("--credentials <json>", "the provider's credentials: JSON, or @file (see `connectors providers --json`)")
      .option("--name <name>", "a label")
      .option("--account-scope <scope>", "provider_account_scope: the external account, distinct per connector of a provider")
      .option("--auth-type <type>", "api_token, oauth, ...")
      .option("--interval <seconds>", "sync_interval_seconds", positiveInteger("--interval")),
  ).action(async (options: CreateOptions, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const body = {
      provider: options.provider,
      credentials: await jsonArgument("--credentials", options.credentials),
      database: requireDatabase(settings),
      ...(settings.collection !== null ? { collection: settings.collection } : {}),
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.accountScope !== undefined ? { provider_account_scope: options.accountScope } : {}),
      ...(options.authType !== undefined ? { auth_type: options.authType } : {}),
      ...(options.interval !== undefined ? { sync_interval_seconds: options.interval } : {}),
    };
    const created = await api.call(api.raw.POST("/connectors", { body }));
    output.emit(`${created.connector_id}\t${created.provider}\t${created.lifecycle}`, created);
  });

  withConnectionOptions(connectors.command("discover").description("resources available at the provider").argument("<id>", "the connector's id"), false).action(
    async (id: string, _options: object, command: Command) => {
      const { api, output } = clientContext(command, outputOf);
      const resources: Array<{ id: string; name: string; resource_type: string; metadata: Record<string, unknown> }> = [];
      let cursor: string | null = null;
      do {
        const page: { resources: typeof resources; next_cursor: string | null; has_more: boolean } = await api.call(
          api.raw.GET("/connectors/{id}/discover", { params: { path: { id }, query: cursor === null ? {} : { cursor } } }),
        );
        resources.push(...page.resources);
        cursor = page.has_more ? page.next_cursor : null;
      } while (cursor !== null);
      output.emit(resources.map((r) => `${r.id}\t${r.resource_type}\t${r.name}`).join("\n") || "no resources", resources);
    },
  );

  withConnectionOptions(
    connectors
      .command("configure")
      .description("choose the resources to sync")
      .argument("<id>", "the connector's id")
      .option("--resources <json>", "JSON array of {resource_id, name?, collection?, metadata?, additional_metadata?}, or @file")
      .option("--resource <ids...>", "resource ids (shorthand for --resources with only ids)")
      .option("--lookback-days <n>", "how far back the first sync reaches", positiveInteger("--lookback-days")),
    false,
  ).action(async (id: string, options: { resources?: string; resource?: string[]; lookbackDays?: number }, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const fromIds = (options.resource ?? []).map((resourceId) => ({ resource_id: resourceId }));
    const fromJson = options.resources === undefined ? [] : resourceList(await jsonArgument("--resources", options.resources));
    const resources = [...fromJson, ...fromIds];
    if (resources.length === 0) throw new UsageError("name the resources: --resources <json> or --resource <ids...> (see `connectors discover`)");
    const body = { resources, ...(options.lookbackDays !== undefined ? { lookback_days: options.lookbackDays } : {}) };
    const configured = await api.call(api.raw.POST("/connectors/{id}/configure", { params: { path: { id } }, body }));
    output.emit(`${configured.connector_id}: ${configured.configured} resource(s) configured`, configured);
  });

  withConnectionOptions(
    connectors
      .command("sync")
      .description("start a sync now; with --wait, until it has ended")
      .argument("<id>", "the connector's id")
      .option("--wait", "wait until the run has ended", false)
      .option("--timeout <seconds>", "how long --wait waits", positiveInteger("--timeout"), 600),
    false,
  ).action(async (id: string, options: { wait: boolean; timeout: number }, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const before = await api.call(api.raw.GET("/connectors/{id}", { params: { path: { id } } }));
    const run = await api.call(api.raw.POST("/connectors/{id}/sync", { params: { path: { id } } }));
    if (!options.wait) {
      output.emit(`sync started: run ${run.run_id}`, run);
      return;
    }
    const deadline = Date.now() + options.timeout * 1000;
    for (;;) {
      const now = await api.call(api.raw.GET("/connectors/{id}", { params: { path: { id } } }));
      if (now.sync_status === "idle" && now.last_attempted_sync_at !== before.last_attempted_sync_at) {
        const result = { ...run, connector: now };
        output.emit(
          `sync ended: ${now.lifecycle}, ${now.documents_dispatched} object(s) dispatched${now.last_error ? `, last error: ${now.last_error}` : ""}`,
          result,
        );
        if (now.last_error && now.last_successful_sync_at === before.last_successful_sync_at) throw new ApiError(0, "SYNC_FAILED", now.last_error);
        return;
      }
      if (Date.now() > deadline) throw new ApiError(0, "TIMEOUT", `the sync of ${id} has not ended after ${options.timeout} s`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  });

  withConnectionOptions(
    connectors.command("status").description("a connector's health, lifecycle and resources").argument("<id>", "the connector's id"),
    false,
  ).action(async (id: string, _options: object, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const status = await api.call(api.raw.GET("/connectors/{id}/status", { params: { path: { id } } }));
    const lines = [
      `${status.connector_id} (${status.provider}): ${status.status}, lifecycle ${status.lifecycle}, sync ${status.sync_status}`,
      `last success: ${status.last_successful_sync_at ?? "never"}; next: ${status.next_sync_at ?? "-"}${status.error ? `; error: ${status.error}` : ""}`,
      ...status.resources.map((r) => `  ${r.resource_id}\t${r.display_name}\t${r.status}\t${r.last_row_count} row(s)${r.message ? `\t${r.message}` : ""}`),
    ];
    output.emit(lines.join("\n"), status);
  });

  withConnectionOptions(
    connectors.command("delete").description("delete a connector (ingested items stay)").argument("<id>", "the connector's id"),
    false,
  ).action(async (id: string, _options: object, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const deleted = await api.call(api.raw.DELETE("/connectors/{id}", { params: { path: { id } } }));
    output.emit(`deleted ${id}`, deleted);
  });
}
