import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { json } from "../ui/format.js";
import { parseJsonObject } from "../ui/json-input.js";
import { useAction } from "../ui/use-polling.js";

export interface ItemRef {
  readonly id: string;
  readonly database: string;
  readonly collection: string | null;
  readonly corpus: "knowledge" | "memory";
}

/** Edits metadata and additional metadata in place (PATCH /context/{id}/metadata merges them). */
export function MetadataEditor(props: {
  api: ApiClient;
  item: ItemRef;
  metadata: Record<string, unknown>;
  additional: Record<string, unknown>;
  onSaved: () => void;
}) {
  const { api, item } = props;
  const [metadata, setMetadata] = useState(json(props.metadata));
  const [additional, setAdditional] = useState(json(props.additional));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    const body = {
      database: item.database,
      collection: item.collection,
      type: item.corpus,
      metadata: parseJsonObject(metadata, "Metadata") ?? {},
      additional_metadata: parseJsonObject(additional, "Additional metadata") ?? {},
    };
    return api.call(api.raw.PATCH("/context/{id}/metadata", { params: { path: { id: item.id } }, body }));
  });

  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        void save.run().then((answer) => {
          if (answer === null) return;
          setMetadata(json(answer.metadata));
          setAdditional(json(answer.additional_metadata));
          setSaved(true);
          props.onSaved();
        });
      }}
    >
      <div class="grid-2">
        <label>
          Metadata (schema fields)
          <textarea data-testid="edit-metadata" rows={6} value={metadata} onInput={(e) => setMetadata(e.currentTarget.value)} />
        </label>
        <label>
          Additional metadata (free-form)
          <textarea data-testid="edit-additional-metadata" rows={6} value={additional} onInput={(e) => setAdditional(e.currentTarget.value)} />
        </label>
      </div>
      <ErrorBanner error={save.error} />
      <div class="row">
        <button type="submit" class="primary" data-testid="save-metadata" disabled={save.pending}>
          {save.pending ? "Saving…" : "Save metadata"}
        </button>
        {saved ? (
          <span class="notice" data-testid="metadata-saved">
            Saved: merged into the item
          </span>
        ) : null}
      </div>
    </form>
  );
}
