import type { QueryParams } from "./query-form.js";
import type { HistoryEntry } from "./query-history.js";

/** What set an entry apart from the form's defaults, in a few words: type, mode, top-k, keyword-only. */
function summary(p: QueryParams): string {
  return [p.type, p.mode, p.queryBy === "text" ? "keyword only" : null, p.maxResults !== "" ? `top ${p.maxResults}` : null].filter(Boolean).join(" · ");
}

/**
 * This tab's earlier queries in the chosen database and collection, newest first: "Use" puts one
 * back into the form, "Run" runs it again as it was.
 */
export function QueryHistoryPanel(props: {
  entries: readonly HistoryEntry[];
  onUse: (params: QueryParams) => void;
  onRun: (params: QueryParams) => void;
  onClear: () => void;
  pending: boolean;
}) {
  if (props.entries.length === 0) {
    return (
      <p class="hint" data-testid="query-history-empty">
        Queries you run appear here, for this tab only.
      </p>
    );
  }
  return (
    <div class="history" data-testid="query-history">
      <ol class="history-list">
        {props.entries.map((e) => (
          <li key={`${e.at}:${e.params.query}`} data-testid="history-entry">
            <span class="history-query" data-testid="history-query" title={e.params.query}>
              {e.params.query}
            </span>
            <span class="muted history-meta">
              {summary(e.params)} · {new Date(e.at).toLocaleTimeString()}
            </span>
            <span class="row-actions">
              <button type="button" class="small" data-testid="history-use" onClick={() => props.onUse(e.params)}>
                Use
              </button>
              <button type="button" class="small" data-testid="history-run" disabled={props.pending} onClick={() => props.onRun(e.params)}>
                Run
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button type="button" class="link" data-testid="history-clear" onClick={props.onClear}>
        Clear history
      </button>
    </div>
  );
}
