// Resources available at the provider (GET /connectors/{id}/discover, paged by next_cursor): add
// one (POST .../resources) or configure a selection with a look-back (POST .../configure).
import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction } from "../ui/use-polling.js";

interface Discovered {
  readonly id: string;
  readonly name: string;
  readonly resource_type: string;
}

export interface DiscoverPanelProps {
  readonly api: ApiClient;
  readonly connectorId: string;
  /** Resource ids already configured on the connector. */
  readonly configured: ReadonlySet<string>;
  readonly onChanged: () => void;
}

const PAGE_SIZE = 20;

export function DiscoverPanel(props: DiscoverPanelProps) {
  const { api, connectorId } = props;
  const [found, setFound] = useState<readonly Discovered[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [lookback, setLookback] = useState("30");
  const [note, setNote] = useState("");

  const discover = useAction(async (from: string | null) => {
    const page = await api.call(
      api.raw.GET("/connectors/{id}/discover", { params: { path: { id: connectorId }, query: { limit: PAGE_SIZE, ...(from ? { cursor: from } : {}) } } }),
    );
    setFound([...(from ? (found ?? []) : []), ...page.resources]);
    setCursor(page.has_more ? page.next_cursor : null);
  });
  const add = useAction(async (r: Discovered) => {
    await api.call(
      api.raw.POST("/connectors/{id}/resources", {
        params: { path: { id: connectorId } },
        body: { resource_id: r.id, resource_type: r.resource_type, display_name: r.name },
      }),
    );
    setNote(`Added ${r.name}.`);
    props.onChanged();
  });
  const configure = useAction(async () => {
    const resources = (found ?? []).filter((r) => chosen.has(r.id)).map((r) => ({ resource_id: r.id, resource_type: r.resource_type, name: r.name }));
    const days = Number(lookback);
    const answer = await api.call(
      api.raw.POST("/connectors/{id}/configure", {
        params: { path: { id: connectorId } },
        body: { resources, ...(lookback.trim() !== "" && Number.isFinite(days) ? { lookback_days: days } : {}) },
      }),
    );
    setChosen(new Set());
    setNote(`Configured ${answer.configured} resource(s)${answer.backfill ? ", with a backfill" : ""}.`);
    props.onChanged();
  });

  const toggle = (id: string): void => {
    const next = new Set(chosen);
    if (!next.delete(id)) next.add(id);
    setChosen(next);
  };

  return (
    <div data-testid="discover-panel">
      <div class="toolbar">
        <button type="button" data-testid="discover-run" disabled={discover.pending} onClick={() => void discover.run(null)}>
          {discover.pending ? "Asking the provider…" : found === null ? "Discover resources" : "Discover again"}
        </button>
        {found !== null ? (
          <>
            <label>
              Look back (days)
              <input type="number" min={1} value={lookback} data-testid="discover-lookback" onInput={(e) => setLookback(e.currentTarget.value)} />
            </label>
            <button
              type="button"
              class="primary"
              data-testid="discover-configure"
              disabled={chosen.size === 0 || configure.pending}
              onClick={() => void configure.run()}
            >
              Configure selected ({chosen.size})
            </button>
          </>
        ) : null}
      </div>
      <ErrorBanner error={discover.error ?? add.error ?? configure.error} testId="discover-error" />
      {note ? (
        <p class="notice" data-testid="discover-note">
          {note}
        </p>
      ) : null}
      {found !== null ? (
        <table class="table" data-testid="discovered-table">
          <thead>
            <tr>
              <th />
              <th>Name</th>
              <th>Id</th>
              <th>Type</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {found.length === 0 ? (
              <tr>
                <td class="empty" colSpan={5}>
                  The provider offers no resources to these credentials.
                </td>
              </tr>
            ) : null}
            {found.map((r) => {
              const done = props.configured.has(r.id);
              return (
                <tr key={r.id} data-testid="discovered-row" data-resource-id={r.id}>
                  <td>
                    <input type="checkbox" aria-label={`select ${r.name}`} disabled={done} checked={chosen.has(r.id)} onChange={() => toggle(r.id)} />
                  </td>
                  <td>{r.name}</td>
                  <td class="mono">{r.id}</td>
                  <td>{r.resource_type}</td>
                  <td>
                    {done ? (
                      <span class="muted">configured</span>
                    ) : (
                      <button type="button" data-testid="discovered-add" disabled={add.pending} onClick={() => void add.run(r)}>
                        Add
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {cursor !== null ? (
        <button type="button" data-testid="discover-more" disabled={discover.pending} onClick={() => void discover.run(cursor)}>
          Load more
        </button>
      ) : null}
    </div>
  );
}
