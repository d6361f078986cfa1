import { useState } from "preact/hooks";

export interface ItemFilters {
  /** Words that must each occur in the title or the text (the list's `search`). */
  readonly search: string;
  readonly type: "knowledge" | "memory" | "all";
  readonly metadata: string;
  readonly additionalMetadata: string;
  readonly sourceType: string;
  readonly title: string;
  readonly acl: string;
  readonly foldThreads: boolean;
  readonly pageSize: number;
}

export const NO_FILTERS: ItemFilters = {
  search: "",
  type: "knowledge",
  metadata: "",
  additionalMetadata: "",
  sourceType: "",
  title: "",
  acl: "",
  foldThreads: false,
  pageSize: 25,
};

/** The filters of POST /context/list, applied together when the form is sent. */
export function ItemsFilterForm(props: { value: ItemFilters; onApply: (filters: ItemFilters) => void }) {
  const [draft, setDraft] = useState(props.value);
  const set = <K extends keyof ItemFilters>(key: K, value: ItemFilters[K]) => setDraft({ ...draft, [key]: value });
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(draft);
      }}
    >
      <label class="search-field">
        Search titles and text
        <input
          type="search"
          data-testid="filter-search"
          placeholder="words that must all occur, e.g. rollback container"
          value={draft.search}
          onInput={(e) => set("search", e.currentTarget.value)}
        />
      </label>
      <div class="form-grid">
        <label>
          Type
          <select data-testid="filter-type" value={draft.type} onChange={(e) => set("type", e.currentTarget.value as ItemFilters["type"])}>
            <option value="knowledge">Knowledge</option>
            <option value="memory">Memories</option>
            <option value="all">All</option>
          </select>
        </label>
        <label>
          Source type
          <input
            data-testid="filter-source-type"
            placeholder="markdown, csv, ticket…"
            value={draft.sourceType}
            onInput={(e) => set("sourceType", e.currentTarget.value)}
          />
        </label>
        <label>
          Title (exact)
          <input data-testid="filter-title" value={draft.title} onInput={(e) => set("title", e.currentTarget.value)} />
        </label>
        <label>
          Metadata (JSON, exact match)
          <input
            data-testid="filter-metadata"
            placeholder='{"team": "support"}'
            value={draft.metadata}
            onInput={(e) => set("metadata", e.currentTarget.value)}
          />
        </label>
        <label>
          Additional metadata (JSON)
          <input
            data-testid="filter-additional-metadata"
            placeholder='{"source": "import"}'
            value={draft.additionalMetadata}
            onInput={(e) => set("additionalMetadata", e.currentTarget.value)}
          />
        </label>
        <label>
          ACL principals (comma-separated)
          <input data-testid="filter-acl" placeholder="alice, team:support" value={draft.acl} onInput={(e) => set("acl", e.currentTarget.value)} />
        </label>
        <label>
          Page size
          <select data-testid="filter-page-size" value={String(draft.pageSize)} onChange={(e) => set("pageSize", Number(e.currentTarget.value))}>
            {[10, 25, 50, 100].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label class="inline checkbox">
          <input type="checkbox" data-testid="filter-fold-threads" checked={draft.foldThreads} onChange={(e) => set("foldThreads", e.currentTarget.checked)} />
          Fold threads (comments under their root)
        </label>
      </div>
      <div class="row">
        <button type="submit" class="primary" data-testid="apply-filters">
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            props.onApply(NO_FILTERS);
          }}
        >
          Reset
        </button>
      </div>
    </form>
  );
}
