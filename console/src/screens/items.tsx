import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { formatTime } from "../ui/format.js";
import { hashWithId } from "../ui/hash-route.js";
import { parseJsonObject, parseList } from "../ui/json-input.js";
import { NeedsDatabase, Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { Table } from "../ui/table.js";
import { useApi } from "../ui/use-polling.js";
import { ItemsFilterForm, NO_FILTERS, type ItemFilters } from "./items-filters.js";

interface Row {
  readonly id: string;
  readonly corpus: "knowledge" | "memory";
  readonly title: string;
  readonly type: string;
  readonly timestamp: string | null;
  readonly detail: string;
  readonly comments: number;
}

async function listItems(api: ApiClient, database: string, collection: string | null, filters: ItemFilters, page: number) {
  const sourceFields: Record<string, string> = {};
  if (filters.sourceType.trim() !== "") sourceFields.type = filters.sourceType.trim();
  if (filters.title.trim() !== "") sourceFields.title = filters.title.trim();
  const body = {
    database,
    collection,
    type: filters.type,
    page,
    page_size: filters.pageSize,
    filters: {
      metadata: parseJsonObject(filters.metadata, "Metadata"),
      additional_metadata: parseJsonObject(filters.additionalMetadata, "Additional metadata"),
      source_fields: Object.keys(sourceFields).length > 0 ? sourceFields : null,
    },
    acl: parseList(filters.acl),
    fold_threads: filters.foldThreads,
    ...(filters.search.trim() !== "" ? { search: filters.search.trim() } : {}),
  };
  const data = await api.call(api.raw.POST("/context/list", { body }));
  const rows: Row[] = [
    ...(data.sources ?? []).map((s): Row => ({
      id: s.id,
      corpus: "knowledge",
      title: s.title ?? s.id,
      type: s.type ?? "",
      timestamp: s.timestamp ?? null,
      detail: [s.app_provider, s.app_kind].filter(Boolean).join(" · "),
      comments: s.comments?.length ?? 0,
    })),
    ...(data.user_memories ?? []).map((m): Row => ({
      id: m.memory_id,
      corpus: "memory",
      title: m.title || m.memory_id,
      type: "memory",
      timestamp: m.timestamp,
      detail: m.memory_content,
      comments: 0,
    })),
  ];
  return { rows, pagination: data.pagination };
}

/** Browse the items of the chosen database and collection with the list filters, and open one. */
export function ItemsScreen(props: ScreenProps) {
  const { api, database, collection } = props;
  const [filters, setFilters] = useState<ItemFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const list = useApi(async () => (database === null ? null : listItems(api, database, collection, filters, page)), [api, database, collection, filters, page]);
  const pagination = list.data?.pagination;

  return (
    <Page
      title="Items"
      subtitle="Knowledge sources and memories: search their titles and text, or filter them exactly as POST /context/list does."
      testId="screen-items"
    >
      {database === null ? (
        <NeedsDatabase />
      ) : (
        <>
          <Panel title="Filters">
            <ItemsFilterForm
              value={filters}
              onApply={(next) => {
                setFilters(next);
                setPage(1);
              }}
            />
          </Panel>
          <Panel
            title={pagination ? `${pagination.total} item${pagination.total === 1 ? "" : "s"}` : "Items"}
            actions={
              <button type="button" class="link" data-testid="refresh-items" onClick={list.refresh}>
                Refresh
              </button>
            }
          >
            <ErrorBanner error={list.error} />
            <Table
              testId="items-table"
              rows={list.data?.rows ?? []}
              rowKey={(r) => `${r.corpus}:${r.id}`}
              empty={
                list.loading
                  ? "Loading…"
                  : filters.search.trim() !== ""
                    ? `No item has every word of “${filters.search.trim()}” in its title or text.`
                    : "No items match."
              }
              columns={[
                {
                  label: "Title",
                  cell: (r) => (
                    <a href={`${hashWithId("/items", r.id)}${r.corpus === "memory" ? "?type=memory" : ""}`} data-testid="item-link">
                      {r.title}
                    </a>
                  ),
                },
                { label: "Id", cell: (r) => <span class="mono muted">{r.id}</span> },
                { label: "Type", cell: (r) => <span class="badge">{r.type}</span> },
                { label: "Details", cell: (r) => <span class="clip">{r.detail}</span> },
                { label: "Comments", cell: (r) => (r.comments > 0 ? r.comments : ""), numeric: true },
                { label: "Time", cell: (r) => formatTime(r.timestamp) },
              ]}
            />
            {pagination ? (
              <div class="pager" data-testid="pager">
                <button type="button" data-testid="page-prev" disabled={!pagination.has_previous} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span data-testid="page-info">
                  Page {pagination.page} of {Math.max(pagination.total_pages, 1)}
                </span>
                <button type="button" data-testid="page-next" disabled={!pagination.has_next} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </div>
            ) : null}
          </Panel>
        </>
      )}
    </Page>
  );
}
