import type { ProviderDescriptor } from "../provider.js";
import { tokenCredentialSchema } from "../token-credentials.js";

export const SLACK_DESCRIPTOR: ProviderDescriptor = {
  provider: "slack",
  category: "communication",
  connectorType: "slack",
  authType: "api_token",
  credentialSchema: tokenCredentialSchema("A Slack bot (xoxb-) or user (xoxp-) token"),
  resourceTypes: ["channel"],
  indexedObjectTypes: ["message"],
  searchableFields: [
    { name: "text", data_type: "string", description: "message text" },
    { name: "author", data_type: "object", description: "sender: Slack user id, name, email" },
  ],
  filterableFields: [
    { name: "channel_id", data_type: "string", filter_key: "additional_metadata.resource_id", description: "the channel" },
    { name: "slack_ts", data_type: "string", filter_key: "additional_metadata.slack_ts", description: "message timestamp" },
  ],
  setupGuide:
    "Create a Slack app for your workspace, add the bot scopes channels:history, channels:read, groups:history, groups:read, " +
    "users:read and users:read.email, install it, invite the bot to the channels to sync, and pass the Bot User OAuth Token " +
    "(xoxb-...) as credentials.access_token.",
  resourceAccessAction: "Invite the app's bot to the channel (/invite @your-app), or remove the resource if the channel was deleted.",
  defaultSyncIntervalSeconds: 3600,
  minSyncIntervalSeconds: 300,
  maxSyncIntervalSeconds: 604_800,
  accountScopeFromProvider: true,
};
