// Cypher console (#/cypher): run openCypher against a graph collection of the graph area
// (POST /byog/query) in the database chosen in the header with JSON params; rows as a table, nodes and relationships also as a graph.
import "../graph/console-graph.css";
import { useState } from "preact/hooks";
import { CypherResults, type CypherAnswer } from "../graph/cypher-results.js";
import { GraphAreaPicker } from "../graph/graph-area-picker.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { useAction } from "../ui/use-polling.js";

const EXAMPLE = "MATCH (n)-[r]->(m)\nRETURN n, r, m\nLIMIT 25";

/** The params box as an object: `{}` when empty; anything but a JSON object is refused before sending. */
function parseParams(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    throw new Error(`params are not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error('params must be a JSON object, such as {"name": "Ada"}');
  return value as Record<string, unknown>;
}

export function CypherScreen(props: ScreenProps) {
  // The database is the console's one choice (the header's); the graph collection is this screen's.
  const { database } = props;
  const [collection, setCollection] = useState("main");
  const [query, setQuery] = useState(EXAMPLE);
  const [params, setParams] = useState("{}");
  const [answer, setAnswer] = useState<CypherAnswer | null>(null);
  const [version, setVersion] = useState(0);

  const run = useAction(async () => {
    if (database === null) return;
    const started = performance.now();
    const pending = props.api.raw.POST("/byog/query", {
      body: { database, collection, query, params: parseParams(params) },
    });
    const body = await props.api.call(pending);
    const { response } = await pending;
    setAnswer({ rows: body.data, truncated: response.headers.get("x-result-truncated") === "true", elapsedMs: Math.round(performance.now() - started) });
    setVersion((v) => v + 1);
  });

  const submit = (event: Event): void => {
    event.preventDefault();
    setAnswer(null);
    void run.run();
  };

  return (
    <Page title="Cypher console" subtitle="openCypher over the graph collections of the graph area (bring your own graph)." testId="screen-cypher">
      <div class="grid-2">
        <Panel title="Graph area">
          <GraphAreaPicker
            api={props.api}
            database={database}
            collection={collection}
            onCollection={setCollection}
            onDatabaseCreated={(name) => {
              props.chooseDatabase(name);
              props.refreshDatabases();
            }}
            version={version}
          />
        </Panel>
        <Panel title="Query">
          <form
            class="cypher-form"
            onSubmit={submit}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e);
            }}
          >
            <textarea data-testid="cypher-query" class="code" rows={7} spellcheck={false} value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
            <label>
              <span>
                Params: a JSON object, each key used as <code>$key</code> in the query
              </span>
              <textarea data-testid="cypher-params" class="code" rows={3} spellcheck={false} value={params} onInput={(e) => setParams(e.currentTarget.value)} />
            </label>
            <div class="form-actions">
              <button type="submit" class="primary" data-testid="cypher-run" disabled={run.pending || database === null || collection === ""}>
                {run.pending ? "Running…" : "Run"}
              </button>
              <span class="muted">Ctrl+Enter runs. Writes commit at once.</span>
            </div>
          </form>
          <ErrorBanner error={run.error} testId="cypher-error" />
        </Panel>
      </div>
      {answer ? (
        <Panel title="Result">
          <CypherResults answer={answer} />
        </Panel>
      ) : null}
    </Page>
  );
}
