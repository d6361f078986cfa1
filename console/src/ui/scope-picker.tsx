import type { ApiClient } from "../../../src/client/api-client.js";
import type { DatabaseEntry } from "./use-databases.js";
import { usePolling } from "./use-polling.js";

/**
 * Header pickers for the database and collection every screen works on. The database choice is
 * the console's one: every screen, the Cypher console included, reads it from here. The
 * collection is a context collection, so it is off while a graph database is chosen.
 */
export function ScopePicker(props: {
  api: ApiClient;
  databases: readonly DatabaseEntry[] | null;
  database: string | null;
  collection: string | null;
  onDatabase: (name: string | null) => void;
  onCollection: (name: string | null) => void;
}) {
  const { api, database } = props;
  const entries = [...(props.databases ?? [])];
  // A chosen database that is gone (deleted elsewhere) is still listed so the choice stays visible.
  if (database !== null && !entries.some((d) => d.database === database)) entries.unshift({ database, kind: "context" });
  const graph = entries.find((d) => d.database === database)?.kind === "graph";
  const collections = usePolling(
    async () => (database === null || graph ? [] : (await api.call(api.raw.GET("/databases/collections", { params: { query: { database } } }))).collections),
    10000,
    [api, database, graph],
  );

  return (
    <div class="scope-picker">
      <label>
        Database
        <select
          data-testid="database-picker"
          value={database ?? ""}
          onChange={(e) => {
            const value = e.currentTarget.value;
            props.onDatabase(value === "" ? null : value);
          }}
        >
          <option value="">{entries.length === 0 ? "(none yet)" : "(choose)"}</option>
          {entries.map((d) => (
            <option key={d.database} value={d.database} data-kind={d.kind}>
              {d.kind === "graph" ? `${d.database} (graph)` : d.database}
            </option>
          ))}
        </select>
      </label>
      <label title={graph ? "A graph database has graph collections only: choose them in the Cypher console" : undefined}>
        Collection
        <input
          list="collection-options"
          data-testid="collection-picker"
          placeholder={graph ? "(graph database)" : "(default)"}
          value={graph ? "" : (props.collection ?? "")}
          disabled={database === null || graph}
          onChange={(e) => {
            const value = e.currentTarget.value.trim();
            props.onCollection(value === "" ? null : value);
          }}
        />
        <datalist id="collection-options">
          {(collections.data ?? []).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
    </div>
  );
}
