import type { TSchema } from "@sinclair/typebox";
import type { AppItemKind } from "../../engines/documents/app-items/index.js";

/**
 * The one contract every connector provider implements (conventions item 13). A provider is a
 * folder `src/features/connectors/<provider>/` with the same files: `index.ts` (the factory returning a
 * ConnectorProvider), `credentials.ts` (credential schema and descriptor), `client.ts` (a thin
 * typed client over the ProviderTransport, which keeps every request and its credentials on the
 * provider's configured API) and `mapping.ts` (provider objects -> SyncedObject). Its fake (a
 * local server answering like the real API, for tests, benchmarks and the demo) lives with the
 * tests, in `test/helpers/fake-providers/<provider>.ts`, outside the service's build.
 *
 * The sync engine owns everything else: windows and checkpoints in the store, the object
 * ledger, deterministic ids, content hashes, deletion, scheduling, rate-limit rescheduling and
 * error classification. Providers never sleep, retry or keep state between calls: they report
 * rate limits and auth failures by throwing ProviderError (see provider-error.ts).
 */

export type ProviderId = "slack" | "github" | "linear" | "notion" | "gmail";
export const PROVIDER_IDS: readonly ProviderId[] = ["slack", "github", "linear", "notion", "gmail"];

/** Credentials as given by the user, validated against the provider's credential schema. */
export type Credentials = Readonly<Record<string, string>>;

export interface FieldDescription {
  readonly name: string;
  readonly data_type: string;
  readonly description: string;
}

/** What GET /connectors/providers?id= publishes about a provider. */
export interface ProviderDescriptor {
  readonly provider: ProviderId;
  readonly category: string;
  readonly connectorType: string;
  readonly authType: "api_token" | "oauth";
  /** JSON Schema of `credentials` (TypeBox; it is published as is). */
  readonly credentialSchema: TSchema;
  readonly resourceTypes: readonly string[];
  readonly indexedObjectTypes: readonly AppItemKind[];
  readonly searchableFields: readonly FieldDescription[];
  readonly filterableFields: ReadonlyArray<FieldDescription & { readonly filter_key: string }>;
  readonly setupGuide: string;
  /**
   * What the user does when a configured resource is gone or hidden from the credentials (the
   * status route's `action` of a failed resource): the next sync picks the resource up again.
   */
  readonly resourceAccessAction: string;
  readonly defaultSyncIntervalSeconds: number;
  readonly minSyncIntervalSeconds: number;
  readonly maxSyncIntervalSeconds: number;
  /** Whether provider_account_scope comes from the account (Slack team id) or stays empty (Gmail). */
  readonly accountScopeFromProvider: boolean;
}

/** The account the credentials belong to, as the provider reports it. */
export interface VerifiedAccount {
  /** Fills provider_account_scope when the user gives none (Slack team id, GitHub login). */
  readonly accountScope: string;
  readonly accountLabel: string;
}

export interface DiscoveredResource {
  readonly id: string;
  readonly name: string;
  readonly resource_type: string;
  readonly metadata: Record<string, unknown>;
}

export interface DiscoverPage {
  readonly resources: DiscoveredResource[];
  readonly nextCursor: string | null;
}

/** A configured resource, as the engine hands it to the provider. */
export interface ResourceRef {
  readonly resourceId: string;
  readonly resourceType: string;
  readonly displayName: string;
  readonly providerMetadata: Record<string, unknown> | null;
}

/**
 * The window of one pull, fixed when the run starts and kept in the checkpoint: `start` is the
 * committed cursor minus the provider's overlap (or the lookback on a first pull), `end` becomes
 * the new provider_cursor when the window completes. Both are strings in the provider's own
 * cursor format (Slack ts, ISO time, Gmail historyId).
 */
export interface SyncWindow {
  readonly start: string;
  readonly end: string;
  /** The committed cursor this window continues from ("" on a first pull). */
  readonly since: string;
}

export interface PullRequest {
  readonly credentials: Credentials;
  readonly resource: ResourceRef;
  readonly window: SyncWindow;
  /** Provider page state from the previous page of this window; null on the first page. */
  readonly state: unknown;
  readonly signal: AbortSignal;
}

/** A relation to another object of the same connector, by kind and native id. */
export interface ObjectLink {
  readonly predicate: string;
  readonly kind: AppItemKind;
  readonly nativeId: string;
}

/**
 * One provider object, ready to become a knowledge app item. The engine adds the id
 * (provider, account scope, kind, native id), metadata.provider, additional_metadata
 * (connector_id, resource_id, provider_account_scope and `nativeKeys`), relations by id and ACL.
 */
export interface SyncedObject {
  readonly kind: AppItemKind;
  readonly nativeId: string;
  /** The rich app item without id, metadata and relations: title, fields, timestamps, url... */
  readonly item: Record<string, unknown>;
  /** The parent object (a reply's thread root, a comment's issue). */
  readonly parent?: { readonly kind: AppItemKind; readonly nativeId: string };
  readonly links?: readonly ObjectLink[];
  /** Provider identifiers for additional_metadata (slack_ts, github_issue_number...). */
  readonly nativeKeys: Record<string, string | number | boolean | null>;
  /** Provider permissions (member emails of a private channel); null: the resource's ACL. */
  readonly acl?: readonly string[] | null;
}

export interface PullPage {
  readonly objects: SyncedObject[];
  /** State for the next page of this window; null when the window is complete. */
  readonly next: unknown;
}

/** Live object ids of a resource (deletion reconciliation): ids only, paged. */
export interface LiveIdsPage {
  readonly ids: ReadonlyArray<{ readonly kind: AppItemKind; readonly nativeId: string }>;
  readonly next: unknown;
  /**
   * Objects the listing re-read because they changed (a Slack thread with a new or deleted
   * reply): the engine upserts them like pulled objects (unchanged hashes are skipped).
   */
  readonly objects?: readonly SyncedObject[];
  /**
   * Objects whose children the listing did not enumerate (a thread that did not change): their
   * children stay as stored, and are not taken for deleted.
   */
  readonly keepChildrenOf?: ReadonlyArray<{ readonly kind: AppItemKind; readonly nativeId: string }>;
}

/** Which of these objects differ from what is stored (new, or another content hash). */
export type ChangedFilter = (objects: readonly SyncedObject[]) => Promise<SyncedObject[]>;

export interface ConnectorProvider {
  readonly descriptor: ProviderDescriptor;
  /** Checks the credentials against the provider (rejected: ProviderError kind "auth"). */
  verify(credentials: Credentials, signal: AbortSignal): Promise<VerifiedAccount>;
  discover(credentials: Credentials, page: { cursor: string | null; limit: number }, signal: AbortSignal): Promise<DiscoverPage>;
  /** One resource by type and id (configure checks it exists); null when the provider has none. */
  describeResource(credentials: Credentials, resourceType: string, resourceId: string, signal: AbortSignal): Promise<DiscoveredResource | null>;
  /** Resource-level ACL the provider tells (private channel members); null: unrestricted. */
  resourceAcl(credentials: Credentials, resource: ResourceRef, signal: AbortSignal): Promise<string[] | null>;
  /** Fixes the window of this run from the committed cursor ("" = never pulled). */
  openWindow(cursor: string, lookbackStartMs: number, nowMs: number): SyncWindow;
  pull(request: PullRequest): Promise<PullPage>;
  /**
   * One page of the ids that exist now; `state` null on the first call. `changed` tells which
   * objects differ from the stored ones, so a provider can re-read only what changed.
   */
  listLiveIds(credentials: Credentials, resource: ResourceRef, state: unknown, signal: AbortSignal, changed?: ChangedFilter): Promise<LiveIdsPage>;
}
