import type { ApiClient } from "../../../src/client/api-client.js";
import { usePolling } from "./use-polling.js";

/** Header pickers for the database and collection every screen works on. */
export function ScopePicker(props: {
  api: ApiClient;
  database: string | null;
  collection: string | null;
  onDatabase: (name: string | null) => void;
  onCollection: (name: string | null) => void;
}) {
  const { api, database } = props;
  // New databases (made on the Databases screen or elsewhere) appear without a reload.
  const databases = usePolling(async () => (await api.call(api.raw.GET("/databases"))).databases.filter((d) => d.kind === "context"), 5000, [api]);
  const collections = usePolling(
    async () => (database === null ? [] : (await api.call(api.raw.GET("/databases/collections", { params: { query: { database } } }))).collections),
    10000,
    [api, database],
  );
  const names = databases.data?.map((d) => d.database) ?? [];
  // A chosen database that is gone (deleted elsewhere) is still listed so the choice stays visible.
  if (database !== null && !names.includes(database)) names.unshift(database);

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
          <option value="">{names.length === 0 ? "(none yet)" : "(choose)"}</option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Collection
        <input
          list="collection-options"
          data-testid="collection-picker"
          placeholder="(default)"
          value={props.collection ?? ""}
          disabled={database === null}
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
