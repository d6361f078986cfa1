// Connectors (#/connectors): every connector of the organization with its lifecycle and sync
// state, refreshed by polling, and the form that creates one.
import "../graph/console-graph.css";
import { useState } from "preact/hooks";
import { Badge, when } from "../connectors/connector-format.js";
import { CreateConnectorForm } from "../connectors/create-connector-form.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { hashWithId } from "../ui/hash-route.js";
import { Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { Table } from "../ui/table.js";
import { usePolling } from "../ui/use-polling.js";

const POLL_MS = 3000;

export function ConnectorsScreen(props: ScreenProps) {
  const { api } = props;
  const [creating, setCreating] = useState(false);
  const list = usePolling(async () => (await api.call(api.raw.GET("/connectors"))).connectors, POLL_MS, [api]);
  const connectors = list.data ?? [];

  return (
    <Page
      title="Connectors"
      subtitle="Slack, GitHub, Linear, Notion and Gmail kept in sync with a knowledge collection."
      testId="screen-connectors"
      actions={
        <button type="button" class="primary" data-testid="connector-new" onClick={() => setCreating(!creating)}>
          {creating ? "Close" : "New connector"}
        </button>
      }
    >
      {creating ? (
        <Panel title="New connector">
          <CreateConnectorForm
            api={api}
            database={props.database}
            collection={props.collection}
            onCreated={(id) => props.navigate(hashWithId("/connectors", id))}
          />
        </Panel>
      ) : null}
      <ErrorBanner error={list.error} />
      <Panel>
        <Table
          testId="connectors-table"
          rows={connectors}
          rowKey={(c) => c.connector_id}
          empty={list.data === null ? "Loading…" : "No connectors yet. Create one with New connector."}
          columns={[
            {
              label: "Name",
              cell: (c) => (
                <a href={hashWithId("/connectors", c.connector_id)} data-testid="connector-link">
                  {c.name}
                </a>
              ),
            },
            { label: "Provider", cell: (c) => c.provider },
            { label: "Into", cell: (c) => (c.collection ? `${c.database} / ${c.collection}` : c.database) },
            { label: "Lifecycle", cell: (c) => <Badge value={c.lifecycle} testId="connector-lifecycle" /> },
            { label: "Sync", cell: (c) => <Badge value={c.sync_status} testId="connector-sync-status" /> },
            { label: "Items", numeric: true, cell: (c) => c.documents_dispatched },
            { label: "Last sync", cell: (c) => when(c.last_successful_sync_at) },
            {
              label: "Last error",
              cell: (c) =>
                c.needs_reauth ? (
                  <span class="error-text">reconnect: {c.needs_reauth_reason}</span>
                ) : c.last_error ? (
                  <span class="error-text" title={c.last_error}>
                    {c.last_error.length > 80 ? `${c.last_error.slice(0, 79)}…` : c.last_error}
                  </span>
                ) : (
                  <span class="muted">none</span>
                ),
            },
          ]}
        />
      </Panel>
    </Page>
  );
}
