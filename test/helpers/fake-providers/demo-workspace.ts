import type { ProviderId } from "../../../src/features/connectors/provider.js";

/**
 * A fake provider server holding a small generated workspace (`npm run demo:connectors`, docs):
 * what a user needs to point the service at it and create a connector against it.
 */
export interface DemoWorkspace {
  readonly provider: ProviderId;
  /** The service's configuration that points at this fake (CONNECTOR_<PROVIDER>_API_URL...). */
  readonly env: Readonly<Record<string, string>>;
  /** The `credentials` of POST /connectors the fake accepts. */
  readonly credentials: Readonly<Record<string, string>>;
  /** The resources to configure (POST /connectors/{id}/configure). */
  readonly resources: ReadonlyArray<{ readonly resource_id: string; readonly resource_type: string }>;
  /** How many objects the workspace holds. */
  readonly objects: number;
  /** A query the workspace's content answers. */
  readonly sampleQuery: string;
  close(): Promise<void>;
}

/** Each provider's fake (test/helpers/fake-providers/<provider>.ts) exports one of these as `startDemoWorkspace`. */
export type DemoWorkspaceStarter = () => Promise<DemoWorkspace>;
