import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { downloadJson } from "../ui/clipboard.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { parseJsonObject, parseList } from "../ui/json-input.js";
import { NeedsDatabase, Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { useAction } from "../ui/use-polling.js";
import { DEFAULT_QUERY, QueryForm, type QueryParams } from "./query-form.js";
import { addToHistory, clearHistory, readHistory, type HistoryEntry } from "./query-history.js";
import { QueryHistoryPanel } from "./query-history-panel.js";
import { postQuery, QueryResults, type QueryAnswer, type QueryBody } from "./query-results.js";

interface Answered {
  /** What was sent: exported with the answer, so a saved file says how it was asked. */
  readonly request: QueryBody;
  readonly answer: QueryAnswer;
  /** The query's request id (X-Request-ID): what feedback refers to. */
  readonly requestId: string;
  readonly latencyMs: number;
}

function numberOrNull(text: string, field: string): number | null {
  if (text.trim() === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${field} must be a number`);
  return value;
}

async function runQuery(api: ApiClient, database: string, collection: string | null, p: QueryParams): Promise<Answered> {
  const alpha = p.alpha.trim() === "" || p.alpha.trim() === "auto" ? p.alpha.trim() || null : numberOrNull(p.alpha, "Alpha");
  const body: QueryBody = {
    database,
    collection,
    query: p.query,
    type: p.type,
    query_by: p.queryBy,
    ...(p.operator !== "" ? { operator: p.operator } : {}),
    mode: p.mode,
    graph_context: p.graphContext,
    query_forceful_relations: p.forcefulRelations,
    query_apps: p.queryApps,
    metadata_filters: parseJsonObject(p.metadataFilters, "Metadata filters"),
    max_results: numberOrNull(p.maxResults, "Top-k"),
    alpha: alpha === "auto" ? ("auto" as const) : (alpha as number | null),
    recency_bias: numberOrNull(p.recencyBias, "Recency bias"),
    acl: parseList(p.acl),
  };
  const started = performance.now();
  const { answer, requestId } = await postQuery(api, body);
  return { request: body, answer, requestId, latencyMs: Math.round(performance.now() - started) };
}

/** A thumb drawn inline (emoji fonts are not everywhere; no icon font is loaded). */
function ThumbIcon(props: { down?: boolean }) {
  return (
    <svg class={`icon${props.down ? " down" : ""}`} viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill="currentColor"
        d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6c-.4.4-.6.9-.6 1.4v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z"
      />
    </svg>
  );
}

function Feedback(props: { api: ApiClient; database: string; collection: string | null; requestId: string }) {
  const send = useAction(async (rating: "positive" | "negative") => {
    const body = {
      request_id: props.requestId,
      rating,
      feedback: rating === "positive" ? "thumbs up from the console" : "thumbs down from the console",
      database: props.database,
      ...(props.collection !== null ? { collection: props.collection } : {}),
    };
    return { rating, answer: await props.api.call(props.api.raw.POST("/feedback", { body })) };
  });
  const recorded = send.data;
  return (
    <div class="feedback" data-testid="feedback">
      <span class="hint">Was this answer useful?</span>
      <button
        type="button"
        data-testid="thumbs-up"
        class={recorded?.rating === "positive" ? "selected" : undefined}
        disabled={send.pending}
        onClick={() => void send.run("positive")}
        title="Thumbs up"
      >
        <ThumbIcon /> Yes
      </button>
      <button
        type="button"
        data-testid="thumbs-down"
        class={recorded?.rating === "negative" ? "selected" : undefined}
        disabled={send.pending}
        onClick={() => void send.run("negative")}
        title="Thumbs down"
      >
        <ThumbIcon down /> No
      </button>
      {recorded?.answer.recorded ? (
        <span class="notice" data-testid="feedback-recorded" data-feedback-id={recorded.answer.feedback_id}>
          Recorded {recorded.rating} feedback
        </span>
      ) : null}
      <ErrorBanner error={send.error} />
    </div>
  );
}

/** This tab's history of queries in one database and collection. */
const historyOf = (database: string | null, collection: string | null): HistoryEntry[] =>
  readHistory().filter((e) => e.database === database && e.collection === collection);

/**
 * Try POST /query with every parameter, read the ranked chunks and graph context, rate the answer;
 * run an earlier query again from this tab's history; copy a result, save the whole answer.
 */
export function QueryScreen(props: ScreenProps) {
  const { api, database, collection } = props;
  const [params, setParams] = useState<QueryParams>(() => historyOf(database, collection)[0]?.params ?? DEFAULT_QUERY);
  const [history, setHistory] = useState<HistoryEntry[]>(() => historyOf(database, collection));
  const [result, setResult] = useState<Answered | null>(null);
  const run = useAction(async (p: QueryParams) => {
    if (database === null) return null;
    setParams(p);
    const answered = await runQuery(api, database, collection, p);
    addToHistory({ database, collection, params: p, at: Date.now() });
    setHistory(historyOf(database, collection));
    setResult(answered);
    return answered;
  });

  return (
    <Page title="Query playground" subtitle="Every parameter of POST /query, against the database and collection chosen above." testId="screen-query">
      {database === null ? (
        <NeedsDatabase />
      ) : (
        <>
          <div class="query-top">
            <Panel>
              <QueryForm value={params} onChange={setParams} onRun={(p) => void run.run(p)} pending={run.pending} />
              <ErrorBanner error={run.error} />
            </Panel>
            <Panel title={`History (${history.length})`} testId="query-history-panel">
              <QueryHistoryPanel
                entries={history}
                pending={run.pending}
                onUse={setParams}
                onRun={(p) => void run.run(p)}
                onClear={() => {
                  clearHistory();
                  setHistory([]);
                }}
              />
            </Panel>
          </div>
          {result ? (
            <>
              <div class="answer-bar" data-testid="answer-bar">
                <span class="answer-info">
                  <span class="hint">
                    Request{" "}
                    <span class="mono" data-testid="query-request-id">
                      {result.requestId}
                    </span>{" "}
                    · {result.latencyMs} ms
                  </span>
                  <button
                    type="button"
                    class="small"
                    data-testid="export-results"
                    title="Save the request and the whole answer as a JSON file"
                    onClick={() =>
                      downloadJson(`query-${result.requestId || "answer"}.json`, {
                        request_id: result.requestId,
                        latency_ms: result.latencyMs,
                        request: result.request,
                        answer: result.answer,
                      })
                    }
                  >
                    Export JSON
                  </button>
                </span>
                <Feedback key={result.requestId} api={api} database={database} collection={collection} requestId={result.requestId} />
              </div>
              <QueryResults answer={result.answer} />
            </>
          ) : null}
        </>
      )}
    </Page>
  );
}
