import type { ProviderDescriptor } from "../provider.js";
import { tokenCredentialSchema } from "../token-credentials.js";

export const NOTION_DESCRIPTOR: ProviderDescriptor = {
  provider: "notion",
  category: "knowledge",
  connectorType: "notion",
  authType: "api_token",
  credentialSchema: tokenCredentialSchema("A Notion internal integration secret (ntn_...) or a public integration's OAuth access token"),
  resourceTypes: ["notion_database", "notion_page"],
  indexedObjectTypes: ["knowledge_base"],
  searchableFields: [
    { name: "title", data_type: "string", description: "page title" },
    { name: "body", data_type: "string", description: "the page's block text" },
  ],
  filterableFields: [
    { name: "notion_page_id", data_type: "string", filter_key: "additional_metadata.notion_page_id", description: "page id" },
    { name: "resource_type", data_type: "string", filter_key: "additional_metadata.resource_type", description: "notion_database or notion_page" },
  ],
  setupGuide:
    "Create an internal integration at https://www.notion.so/profile/integrations with the Read content capability (and Read " +
    "user information including email addresses, for authors), copy its secret (ntn_...) and pass it as credentials.api_token. " +
    "Share each page or database to sync with the integration (page menu > Connections). A notion_page resource syncs the page " +
    "and every page below it; a notion_database resource syncs the database's entries.",
  resourceAccessAction: "Share the page or database with the integration again (page menu > Connections), or remove the resource if it was deleted.",
  defaultSyncIntervalSeconds: 3600,
  minSyncIntervalSeconds: 300,
  maxSyncIntervalSeconds: 604_800,
  accountScopeFromProvider: true,
};
