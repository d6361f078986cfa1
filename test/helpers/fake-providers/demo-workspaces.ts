import type { ProviderId } from "../../../src/features/connectors/provider.js";
import type { DemoWorkspaceStarter } from "./demo-workspace.js";
import { startDemoWorkspace as github } from "./github.js";
import { startDemoWorkspace as gmail } from "./gmail.js";
import { startDemoWorkspace as linear } from "./linear.js";
import { startDemoWorkspace as notion } from "./notion.js";
import { startDemoWorkspace as slack } from "./slack.js";

/**
 * The providers' fake servers with a generated workspace (`npm run demo:connectors`). Adding a
 * provider: its fake (<provider>.ts beside this file) exports `startDemoWorkspace` and one line here.
 */
export const DEMO_WORKSPACES: Partial<Record<ProviderId, DemoWorkspaceStarter>> = { slack, github, linear, notion, gmail };
