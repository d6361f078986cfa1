export interface QueryParams {
  readonly query: string;
  readonly type: "knowledge" | "memory" | "all";
  readonly queryBy: "hybrid" | "text";
  readonly operator: "" | "or" | "and" | "phrase";
  readonly mode: "fast" | "thinking";
  readonly maxResults: string;
  readonly alpha: string;
  readonly recencyBias: string;
  readonly graphContext: boolean;
  readonly forcefulRelations: boolean;
  readonly queryApps: boolean;
  readonly metadataFilters: string;
  readonly acl: string;
}

export const DEFAULT_QUERY: QueryParams = {
  query: "",
  type: "knowledge",
  queryBy: "hybrid",
  operator: "",
  mode: "fast",
  maxResults: "10",
  alpha: "auto",
  recencyBias: "",
  graphContext: true,
  forcefulRelations: true,
  queryApps: false,
  metadataFilters: "",
  acl: "",
};

/**
 * Every parameter of POST /query; the database and collection come from the header. The screen
 * holds the values, so a query from the history can be put back into the form.
 */
export function QueryForm(props: { value: QueryParams; onChange: (params: QueryParams) => void; onRun: (params: QueryParams) => void; pending: boolean }) {
  const p = props.value;
  const set = <K extends keyof QueryParams>(key: K, value: QueryParams[K]) => props.onChange({ ...p, [key]: value });
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onRun(p);
      }}
    >
      <textarea
        data-testid="query-text"
        class="query-text"
        rows={2}
        placeholder="Ask something about your data…"
        value={p.query}
        onInput={(e) => set("query", e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) props.onRun(p);
        }}
      />
      <div class="form-grid">
        <label>
          Type
          <select data-testid="query-type" value={p.type} onChange={(e) => set("type", e.currentTarget.value as QueryParams["type"])}>
            <option value="knowledge">Knowledge</option>
            <option value="memory">Memories</option>
            <option value="all">All (merged)</option>
          </select>
        </label>
        <label>
          Mode
          <select data-testid="query-mode" value={p.mode} onChange={(e) => set("mode", e.currentTarget.value as QueryParams["mode"])}>
            <option value="fast">Fast</option>
            <option value="thinking">Thinking (expansion, reranking)</option>
          </select>
        </label>
        <label>
          Query by
          <select data-testid="query-by" value={p.queryBy} onChange={(e) => set("queryBy", e.currentTarget.value as QueryParams["queryBy"])}>
            <option value="hybrid">Hybrid</option>
            <option value="text">Text (keyword only)</option>
          </select>
        </label>
        <label>
          Keyword operator
          <select data-testid="query-operator" value={p.operator} onChange={(e) => set("operator", e.currentTarget.value as QueryParams["operator"])}>
            <option value="">(default)</option>
            <option value="or">or</option>
            <option value="and">and</option>
            <option value="phrase">phrase</option>
          </select>
        </label>
        <label>
          Top-k (max results)
          <input data-testid="query-max-results" type="number" min={1} value={p.maxResults} onInput={(e) => set("maxResults", e.currentTarget.value)} />
        </label>
        <label>
          Alpha (0 keyword … 1 semantic, or auto)
          <input data-testid="query-alpha" value={p.alpha} onInput={(e) => set("alpha", e.currentTarget.value)} />
        </label>
        <label>
          Recency bias (0…1)
          <input data-testid="query-recency" placeholder="(none)" value={p.recencyBias} onInput={(e) => set("recencyBias", e.currentTarget.value)} />
        </label>
        <label>
          Metadata filters (JSON)
          <input
            data-testid="query-metadata-filters"
            placeholder='{"team": "support"}'
            value={p.metadataFilters}
            onInput={(e) => set("metadataFilters", e.currentTarget.value)}
          />
        </label>
        <label>
          ACL principals
          <input data-testid="query-acl" placeholder="alice, team:support" value={p.acl} onInput={(e) => set("acl", e.currentTarget.value)} />
        </label>
      </div>
      <div class="row">
        <label class="inline">
          <input type="checkbox" data-testid="query-graph-context" checked={p.graphContext} onChange={(e) => set("graphContext", e.currentTarget.checked)} />
          Graph context
        </label>
        <label class="inline">
          <input type="checkbox" checked={p.forcefulRelations} onChange={(e) => set("forcefulRelations", e.currentTarget.checked)} />
          Forceful relations (thinking mode)
        </label>
        <label class="inline">
          <input type="checkbox" checked={p.queryApps} onChange={(e) => set("queryApps", e.currentTarget.checked)} />
          Include connector data
        </label>
        <span class="spacer" />
        <button type="submit" class="primary" data-testid="run-query" disabled={props.pending || p.query.trim() === ""}>
          {props.pending ? "Searching…" : "Run query"}
        </button>
      </div>
    </form>
  );
}
