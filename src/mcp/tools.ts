// The ten tools the MCP server offers, in the order clients list them.
import { graphCollectionsTool, graphQueryTool, subgraphTool } from "./graph-tools.js";
import { ingestTool } from "./ingest-tool.js";
import { deleteTool, inspectTool, listTool, statusTool } from "./item-tools.js";
import { feedbackTool, queryTool } from "./query-tools.js";
import type { McpTool } from "./tool-definition.js";

export const MCP_TOOLS: readonly McpTool[] = [
  queryTool,
  ingestTool,
  statusTool,
  listTool,
  inspectTool,
  deleteTool,
  subgraphTool,
  feedbackTool,
  graphQueryTool,
  graphCollectionsTool,
];
