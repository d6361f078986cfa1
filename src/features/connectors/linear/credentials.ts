import type { ProviderDescriptor } from "../provider.js";
import { tokenCredentialSchema } from "../token-credentials.js";

export const LINEAR_DESCRIPTOR: ProviderDescriptor = {
  provider: "linear",
  category: "engineering",
  connectorType: "linear",
  authType: "api_token",
  credentialSchema: tokenCredentialSchema("A Linear personal API key (lin_api_...) or an OAuth access token with the read scope"),
  resourceTypes: ["linear_team", "linear_project"],
  indexedObjectTypes: ["ticket", "comment"],
  searchableFields: [
    { name: "title", data_type: "string", description: "issue title" },
    { name: "body", data_type: "string", description: "issue description or comment text" },
    { name: "assignee", data_type: "object", description: "assignee: name, email" },
  ],
  filterableFields: [
    { name: "linear_identifier", data_type: "string", filter_key: "additional_metadata.linear_identifier", description: "issue identifier, e.g. ENG-142" },
    { name: "linear_issue_id", data_type: "string", filter_key: "additional_metadata.linear_issue_id", description: "issue id" },
    { name: "resource_type", data_type: "string", filter_key: "additional_metadata.resource_type", description: "linear_team or linear_project" },
  ],
  setupGuide:
    "In Linear open Settings > Security & access > Personal API keys, create a key with read access (all teams or the teams " +
    "to sync) and pass it as credentials.api_token (lin_api_...). An OAuth app's access token with the read scope works too, " +
    "as credentials.access_token. Resources are teams (linear_team) or projects (linear_project); GET /connectors/{id}/discover lists both.",
  resourceAccessAction: "Give the API key's user access to the team or project (a private team needs membership), or remove the resource if it was deleted.",
  defaultSyncIntervalSeconds: 3600,
  minSyncIntervalSeconds: 300,
  maxSyncIntervalSeconds: 604_800,
  accountScopeFromProvider: true,
};
