// `databases` (list), `databases create <name>`, `databases delete <name>`, `databases status <name>`.
import type { Command } from "commander";
import { ApiError } from "../../client/api-client.js";
import { clientContext, jsonArgument, positiveInteger, withConnectionOptions, type OutputOf } from "./client-context.js";

const POLL_MS = 250;

export function registerDatabaseCommands(program: Command, outputOf: OutputOf): void {
  const databases = program.command("databases").description("databases visible to the key: list (default), create, delete, status");

  withConnectionOptions(databases.command("list", { isDefault: true }).description("list databases"), false).action(
    async (_options: object, command: Command) => {
      const { api, output } = clientContext(command, outputOf);
      const data = await api.call(api.raw.GET("/databases"));
      output.emit(data.databases.map((d) => `${d.database}\t${d.kind}\t${d.status}`).join("\n") || "no databases", data.databases);
    },
  );

  withConnectionOptions(
    databases
      .command("create")
      .description("create a database; with --wait, until it is ready for ingestion")
      .argument("<name>", "its name")
      .option("--schema <json>", "database_metadata_schema: JSON, or @file")
      .option("--wait", "wait until it is ready for ingestion", false)
      .option("--timeout <seconds>", "how long --wait waits", positiveInteger("--timeout"), 300),
    false,
  ).action(async (name: string, options: { schema?: string; wait: boolean; timeout: number }, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const schema = options.schema === undefined ? {} : { database_metadata_schema: await jsonArgument("--schema", options.schema) };
    const created = await api.call(api.raw.POST("/databases", { body: { database: name, ...schema } }));
    if (!options.wait) {
      output.emit(`${created.database}: ${created.status}`, created);
      return;
    }
    const deadline = Date.now() + options.timeout * 1000;
    for (;;) {
      const status = await api.call(api.raw.GET("/databases/status", { params: { query: { database: name } } }));
      if (status.infra.ready_for_ingestion) {
        output.emit(`${status.database}: ready for ingestion`, status);
        return;
      }
      if (status.status === "failed") {
        output.emit(`${status.database}: failed`, status);
        throw new ApiError(0, "PROVISIONING_FAILED", `${name} could not be made ready (status failed); see \`databases status ${name}\``);
      }
      if (Date.now() > deadline) throw new ApiError(0, "TIMEOUT", `${name} is not ready for ingestion after ${options.timeout} s (status ${status.status})`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  });

  withConnectionOptions(
    databases.command("delete").description("delete a database and all its data (irreversible)").argument("<name>", "its name"),
    false,
  ).action(async (name: string, _options: object, command: Command) => {
    const { api, output } = clientContext(command, outputOf);
    const deleted = await api.call(api.raw.DELETE("/databases", { body: { database: name } }));
    output.emit(`${deleted.database}: ${deleted.status}`, deleted);
  });

  withConnectionOptions(databases.command("status").description("readiness of a database").argument("<name>", "its name"), false).action(
    async (name: string, _options: object, command: Command) => {
      const { api, output } = clientContext(command, outputOf);
      const status = await api.call(api.raw.GET("/databases/status", { params: { query: { database: name } } }));
      const infra = status.infra;
      const flags = `ready_for_ingestion=${infra.ready_for_ingestion} scheduler=${infra.scheduler_status} graph=${infra.graph_status} knowledge=${infra.vectorstore_status.knowledge} memories=${infra.vectorstore_status.memories}`;
      output.emit(`${status.database}: ${status.status}\n${flags}`, status);
    },
  );
}
