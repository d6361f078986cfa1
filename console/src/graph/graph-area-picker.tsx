// The graph area's databases and collections: choose where a Cypher query runs, create a graph
// database, drop a collection. Any database of the organization can hold graph collections.
import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction, useApi } from "../ui/use-polling.js";

export interface GraphTarget {
  readonly database: string;
  readonly collection: string;
}

export interface GraphAreaPickerProps {
  readonly api: ApiClient;
  readonly target: GraphTarget;
  readonly onChange: (target: GraphTarget) => void;
  /** Bumped by the screen after a query, so a collection made by its first write shows up. */
  readonly version: number;
}

export function GraphAreaPicker(props: GraphAreaPickerProps) {
  const { api, target, onChange } = props;
  const [newDatabase, setNewDatabase] = useState("");
  const databases = useApi(async () => (await api.call(api.raw.GET("/databases"))).databases, [api]);
  const collections = useApi(
    async () =>
      target.database === "" ? [] : (await api.call(api.raw.GET("/byog/collections", { params: { query: { database: target.database } } }))).collections,
    [api, target.database, props.version],
  );
  const create = useAction(async (name: string) => {
    const made = await api.call(api.raw.POST("/byog/databases", { body: { database: name } }));
    setNewDatabase("");
    databases.refresh();
    onChange({ database: made.database, collection: target.collection });
  });
  const drop = useAction(async (collection: string) => {
    await api.call(api.raw.DELETE("/byog/collections", { body: { database: target.database, collection } }));
    collections.refresh();
  });

  const known = databases.data ?? [];
  return (
    <div class="graph-area-picker" data-testid="graph-area-picker">
      <label>
        Database
        <select
          data-testid="cypher-database"
          value={target.database}
          onChange={(e) => onChange({ database: e.currentTarget.value, collection: target.collection })}
        >
          {target.database !== "" && !known.some((d) => d.database === target.database) ? <option value={target.database}>{target.database}</option> : null}
          {target.database === "" ? <option value="">(choose)</option> : null}
          {known.map((d) => (
            <option key={d.database} value={d.database}>
              {d.database} ({d.kind})
            </option>
          ))}
        </select>
      </label>
      <ErrorBanner error={databases.error} />
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (newDatabase.trim() !== "") void create.run(newDatabase.trim());
        }}
      >
        <input data-testid="graph-database-name" placeholder="new graph database" value={newDatabase} onInput={(e) => setNewDatabase(e.currentTarget.value)} />
        <button type="submit" data-testid="graph-database-create" disabled={create.pending}>
          Create
        </button>
      </form>
      <ErrorBanner error={create.error} />
      <label>
        Collection
        <input
          data-testid="cypher-collection"
          value={target.collection}
          placeholder="a graph, made by its first write"
          onInput={(e) => onChange({ database: target.database, collection: e.currentTarget.value })}
        />
      </label>
      <h3>Collections</h3>
      <ErrorBanner error={collections.error} />
      <ul class="plain-list" data-testid="graph-collections">
        {(collections.data ?? []).length === 0 ? <li class="muted">none yet</li> : null}
        {(collections.data ?? []).map((name) => (
          <li key={name} data-testid="graph-collection" class={name === target.collection ? "selected" : undefined}>
            <button type="button" class="link" onClick={() => onChange({ database: target.database, collection: name })}>
              {name}
            </button>
            <ConfirmButton label="Drop" testId={`drop-collection-${name}`} onConfirm={() => void drop.run(name)} />
          </li>
        ))}
      </ul>
      <ErrorBanner error={drop.error} />
    </div>
  );
}
