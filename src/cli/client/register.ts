// The client commands: they speak to a running service through the public API (src/client/).
import type { Command } from "commander";
import type { OutputOf } from "./client-context.js";
import { registerConnectorCommands } from "./connector-commands.js";
import { registerDatabaseCommands } from "./database-commands.js";
import { registerIngestCommand } from "./ingest-command.js";
import { registerItemCommands } from "./item-commands.js";
import { registerQueryCommands } from "./query-commands.js";

export function registerClientCommands(program: Command, outputOf: OutputOf): void {
  registerIngestCommand(program, outputOf);
  registerQueryCommands(program, outputOf);
  registerItemCommands(program, outputOf);
  registerDatabaseCommands(program, outputOf);
  registerConnectorCommands(program, outputOf);
}
