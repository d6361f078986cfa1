// `context-store mcp`: runs the MCP server over stdio for an MCP client (Claude Desktop, Claude
// Code, Cursor, VS Code) that starts it as a child process.
import type { Command } from "commander";
import { resolveClientSettings, type ClientFlags } from "../client/settings.js";
import type { Output } from "./output.js";

export function registerMcpCommand(program: Command, _outputOf: (command: Command) => Output): void {
  program
    .command("mcp")
    .description("serve the MCP tools over stdio (the protocol on stdout, logs on stderr); flags override CONTEXT_STORE_* variables")
    .option("--url <url>", "the service's address (CONTEXT_STORE_URL; default http://127.0.0.1:8080)")
    .option("--api-key <key>", "an API key of the service (CONTEXT_STORE_API_KEY)")
    .option("--database <name>", "the database tools use when a call names none (CONTEXT_STORE_DATABASE)")
    .option("--collection <name>", "the collection tools use when a call names none (CONTEXT_STORE_COLLECTION)")
    .action(async (flags: ClientFlags) => {
      const settings = resolveClientSettings(flags, process.env);
      // The SDK loads only for this command.
      await (await import("../mcp/stdio.js")).runStdioMcpServer(settings);
    });
}
