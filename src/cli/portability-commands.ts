// Operator commands that move data between stores: export a database to an archive, import one,
// migrate a whole store between SQLite and PostgreSQL. They open stores directly, in system scope;
// their work lives in portability-actions.ts, loaded when one of them runs.
import type { Command } from "commander";
import type { Output } from "./output.js";

type OutputOf = (command: Command) => Output;

export function registerPortabilityCommands(program: Command, outputOf: OutputOf): void {
  program
    .command("export")
    .description("write one database (items, files, chunks, vectors, graphs, connectors without credentials) to a .tar.gz archive")
    .requiredOption("--database <name>", "the database to export")
    .requiredOption("--out <file>", "the archive to write (.tar.gz)")
    .option("--org <org-id>", "its organization (default: the API key's, else the store's only one)")
    .option("--api-key <key>", "an API key of the organization (env CONTEXT_STORE_API_KEY)")
    .action(async (options: { database: string; out: string; org?: string; apiKey?: string }, command: Command) => {
      await (await import("./portability-actions.js")).runExport(options, outputOf(command));
    });

  program
    .command("import")
    .description(
      "restore an archive as a new database of the configured store, with new ids (refused when the name is taken); a store with no organization gets one",
    )
    .requiredOption("--in <file>", "the archive (.tar.gz) written by `export`")
    .option("--org <org-id>", "the organization to import into (default: the API key's, else the store's only one, else a new one)")
    .option("--api-key <key>", "an API key of the organization (env CONTEXT_STORE_API_KEY)")
    .option("--as <name>", "the database's name in this store (default: its name in the archive)")
    .action(async (options: { in: string; org?: string; apiKey?: string; as?: string }, command: Command) => {
      await (await import("./portability-actions.js")).runImport(options, outputOf(command));
    });

  program
    .command("migrate")
    .description("copy a whole store into an empty one: SQLite (a DATA_DIR path) <-> PostgreSQL (a postgres:// URL)")
    .requiredOption("--from <path|url>", "the source: a DATA_DIR path or postgres://...")
    .requiredOption("--to <path|url>", "the empty target: a DATA_DIR path or postgres://...")
    .action(async (options: { from: string; to: string }, command: Command) => {
      await (await import("./portability-actions.js")).runMigrate(options, outputOf(command));
    });
}
