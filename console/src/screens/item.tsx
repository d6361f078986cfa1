import type { ComponentChildren } from "preact";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { formatBytes, formatTime, json, StatusBadge } from "../ui/format.js";
import { hashWithId } from "../ui/hash-route.js";
import { NeedsDatabase, Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { useAction, useApi } from "../ui/use-polling.js";
import { MetadataEditor, type ItemRef } from "./item-metadata.js";

function Field(props: { label: string; children: ComponentChildren }) {
  if (props.children === null || props.children === undefined || props.children === "") return null;
  return (
    <>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </>
  );
}

/** One item: its details, content as indexed, original payload, file download, metadata editing, delete. */
export function ItemScreen(props: ScreenProps) {
  const { api, database, collection } = props;
  const id = props.params.id ?? "";
  const corpus: "knowledge" | "memory" = props.params.type === "memory" ? "memory" : "knowledge";
  const item: ItemRef | null = database === null ? null : { id, database, collection, corpus };
  const inspect = useApi(async () => {
    if (item === null) return null;
    const query = { id, database: item.database, type: corpus, include_chunks: true, ...(collection !== null ? { collection } : {}) };
    return api.call(api.raw.GET("/context/inspect", { params: { query } }));
  }, [api, id, database, collection, corpus]);
  const remove = useAction(async () => {
    if (item === null) return null;
    const body = { database: item.database, type: corpus, ids: [id], ...(collection !== null ? { collection } : {}) };
    return api.call(api.raw.DELETE("/context", { body }));
  });
  const data = inspect.data;

  return (
    <Page
      title={data?.title || id}
      subtitle={<span class="mono">{id}</span>}
      testId="screen-item"
      actions={
        <>
          <a class="button" href={hashWithId("/subgraph", id)} data-testid="explore-graph">
            Explore graph
          </a>
          <ConfirmButton
            label="Delete"
            testId="delete-item"
            disabled={item === null}
            onConfirm={() =>
              void remove.run().then((answer) => {
                if (answer?.results.some((r) => r.deleted)) props.navigate("#/items");
              })
            }
          />
        </>
      }
    >
      {item === null ? <NeedsDatabase /> : null}
      <ErrorBanner error={inspect.error ?? remove.error} />
      {remove.data && !remove.data.results.some((r) => r.deleted) ? <p class="hint">Nothing was deleted: {remove.data.results[0]?.error}</p> : null}
      {data && item ? (
        <>
          <div class="grid-2">
            <Panel title="Details">
              <dl class="kv" data-testid="item-details">
                <Field label="Status">
                  <StatusBadge status={data.indexing_status} testId="item-status" />
                </Field>
                <Field label="Kind">{data.source_type}</Field>
                <Field label="Type">{data.type}</Field>
                <Field label="Collection">{data.collection || "(default)"}</Field>
                <Field label="Time">{formatTime(data.timestamp)}</Field>
                <Field label="Description">{data.description}</Field>
                <Field label="Note">{data.note}</Field>
                <Field label="URL">{data.url}</Field>
                <Field label="App">{[data.app_provider, data.app_kind, data.app_external_id].filter(Boolean).join(" · ")}</Field>
                <Field label="Chunks">
                  <span data-testid="item-chunk-count">{data.chunk_count}</span>
                </Field>
                <Field label="Expires">{formatTime(data.expires_at)}</Field>
              </dl>
            </Panel>
            <Panel title="File">
              {data.presigned_url ? (
                <dl class="kv">
                  <Field label="Name">{data.file_name}</Field>
                  <Field label="Content type">{data.content_type}</Field>
                  <Field label="Size">{formatBytes(data.size_bytes)}</Field>
                  <Field label="Download">
                    <a href={data.presigned_url} download={data.file_name ?? ""} data-testid="download-link">
                      Download original
                    </a>
                    <span class="hint"> (signed link, valid until {formatTime(data.url_expires_at)})</span>
                  </Field>
                </dl>
              ) : (
                <p class="hint">No uploaded file: this item was sent as a record.</p>
              )}
            </Panel>
          </div>
          <Panel title="Metadata">
            <MetadataEditor
              // One editor per item: a save refreshes the page's data without remounting it, so its
              // "saved" notice stays; the editor shows the merged values the PATCH answered.
              key={`${item.corpus}:${item.id}`}
              api={api}
              item={item}
              metadata={data.metadata}
              additional={data.additional_metadata}
              onSaved={inspect.refresh}
            />
          </Panel>
          {data.memory_content !== undefined ? (
            <Panel title="Memory">
              <pre data-testid="memory-content">{data.memory_content}</pre>
              {data.inferred_content ? <pre data-testid="inferred-content">{data.inferred_content}</pre> : null}
            </Panel>
          ) : null}
          <Panel title={`Content as indexed (${data.chunk_count} chunk${data.chunk_count === 1 ? "" : "s"})`}>
            <div data-testid="item-content">
              {data.chunks && data.chunks.length > 0 ? (
                data.chunks.map((chunk) => (
                  <div class="chunk" key={chunk.chunk_uuid} data-testid="item-chunk">
                    <div class="muted mono">
                      #{chunk.position + 1}
                      {chunk.section_path ? ` · ${chunk.section_path}` : ""}
                      {chunk.page !== null ? ` · page ${chunk.page}` : ""}
                    </div>
                    <pre>{chunk.content}</pre>
                  </div>
                ))
              ) : (
                <pre>{data.content ?? "(no text)"}</pre>
              )}
            </div>
          </Panel>
          {data.original !== null && data.original !== undefined ? (
            <Panel title="Original record">
              <pre data-testid="item-original">{json(data.original)}</pre>
            </Panel>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
