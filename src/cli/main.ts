#!/usr/bin/env node
// The `context-store` command: operator commands on the configured store (org, key, config) and
// client commands that speak to a running service through the public API.
import { Command, CommanderError } from "commander";
import { registerAdminCommands } from "./admin-commands.js";
import { registerClientCommands } from "./client/register.js";
import { registerMcpCommand } from "./mcp-command.js";
import { outputFor, reportFailure, type Output } from "./output.js";
import { registerPortabilityCommands } from "./portability-commands.js";

const program = new Command("context-store")
  .description("Context store: operator and client commands")
  .option("--json", "machine-readable output (one JSON document per command)", false)
  .showHelpAfterError()
  .exitOverride();

const outputOf = (command: Command): Output => outputFor(command.optsWithGlobals<{ json: boolean }>().json);

registerAdminCommands(program, outputOf);
registerClientCommands(program, outputOf);
registerMcpCommand(program, outputOf);
registerPortabilityCommands(program, outputOf);

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  return reportFailure(error, program.opts<{ json: boolean }>().json);
}

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (error: unknown) => process.exit(exitCodeOf(error)),
);
