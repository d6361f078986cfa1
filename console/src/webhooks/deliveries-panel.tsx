// Webhook deliveries, newest first: each with its attempts, last HTTP status and last error, and
// a retry (a finished delivery gets another round of attempts; a pending one is left alone).
// The first page is polled so attempts show up as they happen; older pages load on demand.
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { Badge, when } from "../connectors/connector-format.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction, usePolling } from "../ui/use-polling.js";
import type { Delivery } from "./webhook-types.js";

const PAGE_SIZE = 25;
const POLL_MS = 2000;
const FILTERS = ["", "pending", "completed", "failed"] as const;

export function DeliveriesPanel(props: { api: ApiClient }) {
  const { api } = props;
  const [status, setStatus] = useState<string>("");
  const [older, setOlder] = useState<readonly Delivery[]>([]);
  const [note, setNote] = useState("");
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const first = usePolling(
    async () => api.call(api.raw.GET("/webhooks/indexing/deliveries", { params: { query: { limit: PAGE_SIZE, ...(status ? { status } : {}) } } })),
    POLL_MS,
    [api, status],
  );
  // Another filter is another list: older pages of the previous one go.
  useEffect(() => {
    setOlder([]);
    setOlderCursor(null);
  }, [status]);
  const more = useAction(async (cursor: string) => {
    const page = await api.call(
      api.raw.GET("/webhooks/indexing/deliveries", { params: { query: { limit: PAGE_SIZE, cursor, ...(status ? { status } : {}) } } }),
    );
    setOlder([...older, ...page.deliveries]);
    setOlderCursor(page.next_cursor);
  });
  const retry = useAction(async (id: string) => {
    const answer = await api.call(api.raw.POST("/webhooks/indexing/deliveries/{delivery_id}/retry", { params: { path: { delivery_id: id } } }));
    setNote(`${id}: ${answer.message}`);
    first.refresh();
  });

  // A delivery can be on the polled first page and on an older page once newer ones push it down.
  const rows = [...new Map([...(first.data?.deliveries ?? []), ...older].map((d) => [d.delivery_id, d])).values()];
  const cursor = older.length > 0 ? olderCursor : (first.data?.next_cursor ?? null);

  return (
    <div data-testid="webhook-deliveries">
      <div class="toolbar">
        <label>
          Status
          <select data-testid="deliveries-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {f === "" ? "all" : f}
              </option>
            ))}
          </select>
        </label>
        <span class="muted">Refreshes every {POLL_MS / 1000} s.</span>
      </div>
      <ErrorBanner error={first.error ?? more.error} />
      <ErrorBanner error={retry.error} testId="delivery-retry-error" />
      {note ? (
        <p class="notice" data-testid="delivery-note">
          {note}
        </p>
      ) : null}
      <div class="table-scroll">
        <table class="table" data-testid="deliveries-table">
          <thead>
            <tr>
              <th>Delivery</th>
              <th>Item</th>
              <th>Outcome</th>
              <th>Status</th>
              <th class="num">Attempts</th>
              <th>Last answer</th>
              <th>Updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td class="empty" colSpan={8}>
                  {first.data === null ? "Loading…" : "No deliveries yet. One is recorded when an item finishes indexing."}
                </td>
              </tr>
            ) : null}
            {rows.map((d) => (
              <tr key={d.delivery_id} data-testid="delivery-row" data-delivery-id={d.delivery_id} data-status={d.status}>
                <td class="mono nowrap" title={d.delivery_id}>
                  {d.delivery_id.slice(0, 8)}
                </td>
                <td>
                  <span class="mono break">{d.doc_id}</span>
                  <div class="muted">
                    {d.database}
                    {d.collection ? ` / ${d.collection}` : ""}
                  </div>
                </td>
                <td>{d.indexing_status}</td>
                <td>
                  <Badge value={d.status} testId="delivery-status" />
                </td>
                <td class="num" data-testid="delivery-attempts">
                  {d.attempts}
                </td>
                <td>
                  {d.last_status_code !== null ? <span class="nowrap">HTTP {d.last_status_code}</span> : null}
                  {d.error_code ? (
                    <div class="error-text" data-testid="delivery-error">
                      <strong>{d.error_code}</strong> {d.error_message}
                    </div>
                  ) : null}
                </td>
                <td class="nowrap">{when(d.updated_at)}</td>
                <td>
                  <button type="button" data-testid="delivery-retry" disabled={retry.pending} onClick={() => void retry.run(d.delivery_id)}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cursor !== null ? (
        <button type="button" data-testid="deliveries-more" disabled={more.pending} onClick={() => void more.run(cursor)}>
          Older deliveries
        </button>
      ) : null}
    </div>
  );
}
