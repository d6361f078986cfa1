// The graph area's collections in the database chosen in the header: choose where a Cypher query
// runs, create a graph database (it becomes the console's chosen database), drop a collection.
// Any database of the organization can hold graph collections.
import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction, useApi } from "../ui/use-polling.js";

export interface GraphAreaPickerProps {
  readonly api: ApiClient;
  /** The console's chosen database (the header's); null when none is chosen. */
  readonly database: string | null;
  readonly collection: string;
  readonly onCollection: (collection: string) => void;
  /** A graph database was made here: the shell chooses it and lists it in the header. */
  readonly onDatabaseCreated: (database: string) => void;
  /** Bumped by the screen after a query, so a collection made by its first write shows up. */
  readonly version: number;
}

export function GraphAreaPicker(props: GraphAreaPickerProps) {
  const { api, database, collection, onCollection } = props;
  const [newDatabase, setNewDatabase] = useState("");
  const collections = useApi(
    async () => (database === null ? [] : (await api.call(api.raw.GET("/byog/collections", { params: { query: { database } } }))).collections),
    [api, database, props.version],
  );
  const create = useAction(async (name: string) => {
    const made = await api.call(api.raw.POST("/byog/databases", { body: { database: name } }));
    setNewDatabase("");
    props.onDatabaseCreated(made.database);
  });
  const drop = useAction(async (name: string) => {
    if (database === null) return;
    await api.call(api.raw.DELETE("/byog/collections", { body: { database, collection: name } }));
    collections.refresh();
  });

  return (
    <div class="graph-area-picker" data-testid="graph-area-picker">
      <p class="hint" data-testid="cypher-database">
        {database === null ? (
          "Choose a database in the header, or create a graph database here."
        ) : (
          <>
            Database <b class="mono">{database}</b> (chosen in the header)
          </>
        )}
      </p>
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
          value={collection}
          placeholder="a graph, made by its first write"
          onInput={(e) => onCollection(e.currentTarget.value)}
        />
      </label>
      <h3>Collections</h3>
      <ErrorBanner error={collections.error} />
      <ul class="plain-list" data-testid="graph-collections">
        {(collections.data ?? []).length === 0 ? <li class="muted">none yet</li> : null}
        {(collections.data ?? []).map((name) => (
          <li key={name} data-testid="graph-collection" class={name === collection ? "selected" : undefined}>
            <button type="button" class="link" onClick={() => onCollection(name)}>
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
