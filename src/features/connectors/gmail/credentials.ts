import { Type } from "@sinclair/typebox";
import type { ProviderDescriptor } from "../provider.js";

const key = (description: string) => Type.String({ minLength: 1, maxLength: 4096, description });

export const GMAIL_DESCRIPTOR: ProviderDescriptor = {
  provider: "gmail",
  category: "communication",
  connectorType: "gmail",
  authType: "oauth",
  // An OAuth bundle: the service exchanges the refresh token for access tokens itself.
  credentialSchema: Type.Object(
    {
      client_id: key("OAuth client id of your Google Cloud project"),
      client_secret: key("OAuth client secret"),
      refresh_token: key("A refresh token granted with the https://www.googleapis.com/auth/gmail.readonly scope"),
    },
    { additionalProperties: false },
  ),
  resourceTypes: ["gmail_label"],
  indexedObjectTypes: ["email"],
  searchableFields: [
    { name: "subject", data_type: "string", description: "mail subject" },
    { name: "body", data_type: "string", description: "the mail's text" },
    { name: "from", data_type: "string", description: "sender" },
  ],
  filterableFields: [
    { name: "account_email", data_type: "string", filter_key: "additional_metadata.account_email", description: "the mailbox" },
    { name: "thread_id", data_type: "string", filter_key: "additional_metadata.thread_id", description: "Gmail thread id" },
    { name: "gmail_msg_id", data_type: "string", filter_key: "additional_metadata.gmail_msg_id", description: "Gmail message id" },
  ],
  setupGuide:
    "In Google Cloud create a project, enable the Gmail API, configure the OAuth consent screen (publish it: test-mode grants " +
    "expire after 7 days) and create an OAuth client. Authorize the mailbox with the scope " +
    "https://www.googleapis.com/auth/gmail.readonly, access_type=offline and prompt=consent (for example in the OAuth 2.0 " +
    "Playground with your own client), and pass {client_id, client_secret, refresh_token} as credentials. Resources are labels " +
    "(gmail_label: INBOX, SENT or a label id from discover); each mail of a thread in the label becomes an email item. " +
    "provider_account_scope stays empty unless you set it: set one per mailbox to connect several mailboxes.",
  resourceAccessAction: "The label no longer exists in the mailbox: configure the label that replaced it, or remove the resource.",
  defaultSyncIntervalSeconds: 3600,
  minSyncIntervalSeconds: 300,
  maxSyncIntervalSeconds: 604_800,
  accountScopeFromProvider: false,
};
