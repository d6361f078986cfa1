import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { StatusBadge } from "../ui/format.js";
import { Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { Table } from "../ui/table.js";
import { useAction, usePolling } from "../ui/use-polling.js";

interface DatabaseRow {
  readonly database: string;
  readonly kind: string;
  readonly status: string;
  readonly ready: boolean | null;
  readonly counts: Record<string, number> | null;
}

/** Provisioning takes seconds to minutes: the list is asked again this often while the screen is open. */
const REFRESH_MS = 2000;

async function loadDatabases(api: ApiClient): Promise<DatabaseRow[]> {
  const { databases } = await api.call(api.raw.GET("/databases"));
  return Promise.all(
    databases.map(async (d): Promise<DatabaseRow> => {
      if (d.kind !== "context") return { database: d.database, kind: d.kind, status: d.status, ready: null, counts: null };
      const query = { params: { query: { database: d.database } } };
      // A database being deleted may vanish between the list and these reads: show what the list said.
      const [status, stats] = await Promise.allSettled([api.call(api.raw.GET("/databases/status", query)), api.call(api.raw.GET("/databases/stats", query))]);
      return {
        database: d.database,
        kind: d.kind,
        status: status.status === "fulfilled" ? status.value.status : d.status,
        ready: status.status === "fulfilled" ? status.value.infra.ready_for_ingestion : null,
        counts: stats.status === "fulfilled" ? stats.value.counts : null,
      };
    }),
  );
}

function Counts(props: { counts: Record<string, number> | null }) {
  if (props.counts === null) return <span class="hint">–</span>;
  return (
    <span class="counts">
      {Object.entries(props.counts).map(([k, v]) => (
        <span key={k} class="count" data-testid={`count-${k}`}>
          <b>{v}</b> {k.replace(/_/g, " ")}
        </span>
      ))}
    </span>
  );
}

/** The organization's databases: readiness and counts kept fresh, create, delete, and the collections of one. */
export function DatabasesScreen(props: ScreenProps) {
  const { api } = props;
  const list = usePolling(() => loadDatabases(api), REFRESH_MS, [api]);
  const [name, setName] = useState("");
  const [selected, setSelected] = useState<string | null>(props.database);
  // Choosing a database in the header shows its collections here too.
  useEffect(() => setSelected(props.database), [props.database]);
  const create = useAction(async (database: string) => api.call(api.raw.POST("/databases", { body: { database } })));
  const remove = useAction(async (database: string) => api.call(api.raw.DELETE("/databases", { body: { database } })));
  const collections = usePolling(
    async () => (selected === null ? null : await api.call(api.raw.GET("/databases/collections", { params: { query: { database: selected } } }))),
    5000,
    [api, selected],
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await create.run(name.trim());
    if (created) {
      setName("");
      setSelected(created.database);
      list.refresh();
      props.refreshDatabases();
    }
  };

  return (
    <Page title="Databases" subtitle="Each database holds its own knowledge, memories and graph; collections split it further." testId="screen-databases">
      <Panel title="Create a database">
        <form class="row" onSubmit={(e) => void submit(e)}>
          <label>
            Name
            <input data-testid="new-database-name" value={name} placeholder="support_docs" onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" data-testid="create-database" disabled={create.pending || name.trim() === ""}>
            {create.pending ? "Creating…" : "Create"}
          </button>
        </form>
        <ErrorBanner error={create.error} />
      </Panel>
      <Panel title="Databases">
        <ErrorBanner error={list.error ?? remove.error} />
        <Table
          testId="databases-table"
          rows={list.data ?? []}
          rowKey={(r) => r.database}
          empty={list.loading && list.data === null ? "Loading…" : "No databases yet: create one above."}
          columns={[
            {
              label: "Name",
              cell: (r) => (
                <button
                  type="button"
                  class={`link mono${selected === r.database ? " strong" : ""}`}
                  data-testid={`db-open-${r.database}`}
                  onClick={() => setSelected(r.database)}
                >
                  {r.database}
                </button>
              ),
            },
            { label: "Kind", cell: (r) => r.kind },
            {
              label: "Status",
              cell: (r) => <StatusBadge status={r.ready === true ? "ready" : r.status} testId={`db-status-${r.database}`} />,
            },
            { label: "Contents", cell: (r) => <Counts counts={r.counts} /> },
            {
              label: "",
              cell: (r) => (
                <span class="row-actions">
                  <button
                    type="button"
                    data-testid={`db-use-${r.database}`}
                    disabled={props.database === r.database}
                    onClick={() => props.chooseDatabase(r.database)}
                  >
                    {props.database === r.database ? "In use" : "Use"}
                  </button>
                  <ConfirmButton
                    label="Delete"
                    testId={`db-delete-${r.database}`}
                    onConfirm={() =>
                      void remove.run(r.database).then(() => {
                        if (props.database === r.database) props.chooseDatabase(null);
                        list.refresh();
                        props.refreshDatabases();
                      })
                    }
                  />
                </span>
              ),
            },
          ]}
        />
      </Panel>
      {selected !== null ? (
        <Panel title={`Collections of ${selected}`} testId="collections-panel">
          <ErrorBanner error={collections.error} />
          {collections.data && collections.data.collections.length === 0 ? (
            <p class="hint">Only the default collection so far. A collection is created when something is first stored in it.</p>
          ) : (
            <ul class="chips" data-testid="collections-list">
              {(collections.data?.collections ?? []).map((c) => (
                <li key={c} class="chip mono">
                  {c === "" ? "(default)" : c}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      ) : null}
    </Page>
  );
}
