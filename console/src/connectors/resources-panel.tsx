// The configured resources of a connector with their sync state: the stored cursor (empty until
// the first successful pull), the backfill state, and the last check's status and row count.
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction } from "../ui/use-polling.js";
import { Badge, when } from "./connector-format.js";
import type { ConnectorResource, ConnectorStatus } from "./connector-types.js";

export interface ResourcesPanelProps {
  readonly api: ApiClient;
  readonly connectorId: string;
  readonly resources: readonly ConnectorResource[];
  readonly status: ConnectorStatus | null;
  readonly onChanged: () => void;
}

export function ResourcesPanel(props: ResourcesPanelProps) {
  const { api, connectorId } = props;
  const remove = useAction(async (resourceId: string) => {
    await api.call(api.raw.DELETE("/connectors/{id}/resources/{resource_id}", { params: { path: { id: connectorId, resource_id: resourceId } } }));
    props.onChanged();
  });
  const checks = new Map((props.status?.resources ?? []).map((r) => [r.resource_id, r]));
  return (
    <div>
      <ErrorBanner error={remove.error} />
      <table class="table" data-testid="resources-table">
        <thead>
          <tr>
            <th>Resource</th>
            <th>Backfill</th>
            <th>Cursor</th>
            <th>Last check</th>
            <th class="num">Rows</th>
            <th>Collection</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.resources.length === 0 ? (
            <tr>
              <td class="empty" colSpan={7}>
                No resources yet: discover them below and add some. The connector stays in pending setup until then.
              </td>
            </tr>
          ) : null}
          {props.resources.map((r) => {
            const check = checks.get(r.resource_id);
            return (
              <tr key={r.resource_id} data-testid="resource-row" data-resource-id={r.resource_id}>
                <td>
                  <strong>{r.display_name || r.resource_id}</strong>
                  <div class="muted mono">
                    {r.resource_id} · {r.resource_type}
                  </div>
                </td>
                <td>
                  <Badge value={r.backfill_status} testId="resource-backfill" />
                </td>
                <td class="mono" data-testid="resource-cursor">
                  {r.provider_cursor || <span class="muted">not pulled yet</span>}
                </td>
                <td>
                  {check ? <Badge value={check.status} testId="resource-status" /> : null}
                  <div class="muted">{when(check?.checked_at)}</div>
                  {check?.message ? (
                    <div class="error-text" data-testid="resource-message">
                      {check.message}
                    </div>
                  ) : null}
                </td>
                <td class="num">{check?.last_row_count ?? ""}</td>
                <td>{r.collection_override ?? <span class="muted">connector's</span>}</td>
                <td>
                  <ConfirmButton
                    label="Remove"
                    testId={`resource-remove-${r.resource_id}`}
                    disabled={remove.pending}
                    onConfirm={() => void remove.run(r.resource_id)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
