import type { ProviderDescriptor } from "../provider.js";
import { tokenCredentialSchema } from "../token-credentials.js";

export const GITHUB_DESCRIPTOR: ProviderDescriptor = {
  provider: "github",
  category: "engineering",
  connectorType: "github",
  authType: "api_token",
  credentialSchema: tokenCredentialSchema("A GitHub personal access token (ghp_...) or fine-grained token"),
  resourceTypes: ["repository"],
  indexedObjectTypes: ["ticket", "comment"],
  searchableFields: [
    { name: "title", data_type: "string", description: "issue or pull request title" },
    { name: "body", data_type: "string", description: "issue, pull request or comment text" },
  ],
  filterableFields: [
    { name: "github_repo", data_type: "string", filter_key: "additional_metadata.github_repo", description: "owner/repo" },
    { name: "github_issue_number", data_type: "number", filter_key: "additional_metadata.github_issue_number", description: "issue or PR number" },
  ],
  setupGuide:
    "Create a fine-grained personal access token with read access to Metadata, Issues, Pull requests and Contents for the " +
    "repositories to sync (or a classic token with the repo scope for private repositories) and pass it as credentials.access_token. " +
    "For GitHub Enterprise set CONNECTOR_GITHUB_API_URL to https://<host>/api/v3.",
  resourceAccessAction:
    "Give the token read access to the repository (a fine-grained token lists its repositories), or remove the resource if the repository was deleted or renamed.",
  defaultSyncIntervalSeconds: 3600,
  minSyncIntervalSeconds: 300,
  maxSyncIntervalSeconds: 604_800,
  accountScopeFromProvider: true,
};
