import type { Config } from "../../platform/config.js";
import type { ContextEditService } from "../items/edit-service.js";
import type { IngestService } from "../ingestion/service.js";
import type { DatabaseService } from "../databases/service.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { CredentialVault } from "./credentials.js";
import { createProviderRegistry } from "./registry.js";
import { ConnectorService } from "./service.js";
import { SyncControl } from "./sync-control.js";
import { SyncEngine, type SyncOutcome } from "./sync-engine.js";

export interface Connectors {
  readonly service: ConnectorService;
  readonly control: SyncControl;
  readonly engine: SyncEngine;
}

export interface ConnectorDeps {
  readonly store: Store;
  readonly databases: DatabaseService;
  readonly ingest: IngestService;
  readonly edit: ContextEditService;
  readonly queue: JobQueue;
  /** Seals the credentials at rest (the platform's connectors box). */
  readonly secrets: SecretBox;
  /** Told how each sync run attempt ended (metrics). */
  readonly onSyncResult?: (provider: string, outcome: SyncOutcome | "error") => void;
}

/** Wires the connector subsystem from the configuration; called by the composition root. */
export function createConnectors(config: Config, deps: ConnectorDeps): Connectors {
  const vault = new CredentialVault(deps.secrets);
  const providers = createProviderRegistry(config.connectorApiUrls);
  return {
    service: new ConnectorService(deps.store, providers, vault),
    control: new SyncControl(deps.store, deps.queue),
    engine: new SyncEngine(deps.store, providers, vault, deps.ingest, deps.edit, deps.queue, deps.onSyncResult),
  };
}
