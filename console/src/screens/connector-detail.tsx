// One connector (#/connectors/<id>): its state (lifecycle, sync status, counters, last error),
// refreshed by polling; sync now, pause and resume, delete; its resources with their cursors;
// discovering and adding resources; settings.
import "../graph/console-graph.css";
import { useState } from "preact/hooks";
import { Badge, when } from "../connectors/connector-format.js";
import { DiscoverPanel } from "../connectors/discover-panel.js";
import { ResourcesPanel } from "../connectors/resources-panel.js";
import { SettingsPanel } from "../connectors/settings-panel.js";
import { ApiError } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { useAction, usePolling } from "../ui/use-polling.js";

const POLL_MS = 2000;

export function ConnectorDetailScreen(props: ScreenProps) {
  const { api } = props;
  const id = props.params.id ?? "";
  const [note, setNote] = useState("");
  const state = usePolling(
    async () => {
      const path = { params: { path: { id } } };
      const [connector, status, resources] = await Promise.all([
        api.call(api.raw.GET("/connectors/{id}", path)),
        api.call(api.raw.GET("/connectors/{id}/status", path)),
        api.call(api.raw.GET("/connectors/{id}/resources", path)),
      ]);
      return { connector, status, resources: resources.resources };
    },
    POLL_MS,
    [api, id],
  );

  const sync = useAction(async () => {
    const run = await api.call(api.raw.POST("/connectors/{id}/sync", { params: { path: { id } } }));
    setNote(`Sync started (run ${run.run_id}).`);
    state.refresh();
  });
  const pause = useAction(async (paused: boolean) => {
    if (paused) await api.call(api.raw.POST("/connectors/{id}/resume", { params: { path: { id } } }));
    else await api.call(api.raw.POST("/connectors/{id}/pause", { params: { path: { id } } }));
    setNote(paused ? "Resumed: a sync is due now." : "Paused: no sync runs until resumed.");
    state.refresh();
  });
  const remove = useAction(async () => {
    await api.call(api.raw.DELETE("/connectors/{id}", { params: { path: { id } } }));
    props.navigate("#/connectors");
  });

  const data = state.data;
  const c = data?.connector;
  // 409 on sync is the service saying a run is queued or running (or the connector is paused):
  // shown as that state, not as a failure.
  const syncError = sync.error;
  const busy = syncError instanceof ApiError && syncError.status === 409;

  return (
    <Page
      title={c ? c.name : "Connector"}
      subtitle={c ? `${c.provider} · into ${c.database}${c.collection ? ` / ${c.collection}` : ""} · account ${c.provider_account_scope || "(default)"}` : id}
      testId="screen-connector"
      actions={
        c ? (
          <>
            <button type="button" class="primary" data-testid="connector-sync" disabled={sync.pending} onClick={() => void sync.run()}>
              Sync now
            </button>
            <button type="button" data-testid="connector-pause" disabled={pause.pending} onClick={() => void pause.run(c.paused)}>
              {c.paused ? "Resume" : "Pause"}
            </button>
            <ConfirmButton label="Delete" testId="connector-delete" onConfirm={() => void remove.run()} />
          </>
        ) : null
      }
    >
      <p>
        <a href="#/connectors">← All connectors</a>
      </p>
      <ErrorBanner error={state.error} />
      <ErrorBanner error={pause.error ?? remove.error} />
      {busy ? (
        <div class="notice warn" data-testid="connector-sync-busy" role="status">
          <strong>{syncError.code}</strong> {syncError.message}
        </div>
      ) : (
        <ErrorBanner error={syncError} testId="connector-sync-error" />
      )}
      {note && !syncError ? (
        <p class="notice" data-testid="connector-note">
          {note}
        </p>
      ) : null}
      {c && data ? (
        <>
          <Panel title="State" testId="connector-state">
            <dl class="facts">
              <div>
                <dt>Lifecycle</dt>
                <dd>
                  <Badge value={c.lifecycle} testId="connector-lifecycle" />
                </dd>
              </div>
              <div>
                <dt>Sync</dt>
                <dd>
                  <Badge value={c.sync_status} testId="connector-sync-status" />
                </dd>
              </div>
              <div>
                <dt>Health</dt>
                <dd>
                  <Badge value={data.status.status} testId="connector-health" />
                </dd>
              </div>
              <div>
                <dt>Items dispatched</dt>
                <dd data-testid="connector-dispatched">{c.documents_dispatched}</dd>
              </div>
              <div>
                <dt>Sync cycles</dt>
                <dd data-testid="connector-cycles">{c.sync_cycles_completed}</dd>
              </div>
              <div>
                <dt>Last successful sync</dt>
                <dd>{when(c.last_successful_sync_at)}</dd>
              </div>
              <div>
                <dt>Last attempt</dt>
                <dd>{when(c.last_attempted_sync_at)}</dd>
              </div>
              <div>
                <dt>Next sync</dt>
                <dd>{c.paused ? "paused" : when(c.next_sync_at)}</dd>
              </div>
              <div>
                <dt>Interval</dt>
                <dd>{c.sync_interval_seconds} s</dd>
              </div>
            </dl>
            {c.needs_reauth ? (
              <div class="error-banner" role="alert" data-testid="connector-last-error">
                <span class="error-code">CREDENTIALS_REJECTED</span>
                <span class="error-message">
                  {c.needs_reauth_reason || "the provider refused the stored credentials"} ({when(c.needs_reauth_at)}): replace them under Settings.
                </span>
              </div>
            ) : data.status.error ? (
              <div class="error-banner" role="alert" data-testid="connector-last-error">
                <span class="error-code">
                  {data.status.error_code ? `${data.status.error_code}: ` : ""}last sync {data.status.status}
                </span>
                <span class="error-message">{data.status.error}</span>
              </div>
            ) : null}
          </Panel>
          <Panel title={`Resources (${data.resources.length})`} testId="connector-resources">
            <ResourcesPanel api={api} connectorId={id} resources={data.resources} status={data.status} onChanged={state.refresh} />
          </Panel>
          <Panel title="Discover resources at the provider">
            <DiscoverPanel api={api} connectorId={id} configured={new Set(data.resources.map((r) => r.resource_id))} onChanged={state.refresh} />
          </Panel>
          <Panel title="Settings">
            <SettingsPanel api={api} connector={c} onChanged={state.refresh} />
          </Panel>
        </>
      ) : null}
    </Page>
  );
}
