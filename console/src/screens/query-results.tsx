import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import type { paths } from "../../../src/client/api-types.js";
import { CopyButton } from "../ui/copy-button.js";
import { json } from "../ui/format.js";
import { hashWithId } from "../ui/hash-route.js";
import { Panel } from "../ui/page.js";

export type QueryBody = paths["/query"]["post"]["requestBody"]["content"]["application/json"];

/** POST /query, with the query's request id (X-Request-ID): what feedback refers to. */
export async function postQuery(api: ApiClient, body: QueryBody) {
  const pending = api.raw.POST("/query", { body });
  const answer = await api.call(pending);
  // `call` returns the envelope's data; the id is in the response's header.
  const { response } = await pending;
  return { answer, requestId: response.headers.get("X-Request-ID") ?? "" };
}

export type QueryAnswer = Awaited<ReturnType<typeof postQuery>>["answer"];
type Chunk = QueryAnswer["chunks"][number];
type Path = NonNullable<QueryAnswer["graph_context"]>["query_paths"][number];

/** A chunk shorter than this shows whole; a longer one (or one of several lines) opens on demand. */
const PREVIEW_CHARS = 220;
/** Graph context lists this many triplets before "Show all". */
const TRIPLETS_SHOWN = 6;

const isLong = (text: string): boolean => text.length > PREVIEW_CHARS || text.includes("\n");

function ChunkCard(props: { chunk: Chunk; rank: number; expanded: boolean; onToggle: () => void }) {
  const { chunk } = props;
  const link = `${hashWithId("/items", chunk.source_id)}${chunk.type === "memory" ? "?type=memory" : ""}`;
  const long = isLong(chunk.chunk_content);
  return (
    <div class="chunk" data-testid="result-chunk" data-expanded={String(props.expanded || !long)}>
      <div class="chunk-meta">
        <span class="rank">#{props.rank}</span>
        <span>
          score <b data-testid="chunk-score">{chunk.relevancy_score.toFixed(3)}</b>
        </span>
        <a href={link} data-testid="chunk-source" class="chunk-source">
          {chunk.source_title || chunk.source_id}
        </a>
        {chunk.section_path.length > 0 ? <span class="clip">{chunk.section_path.join(" › ")}</span> : null}
        {chunk.page !== null ? <span>page {chunk.page}</span> : null}
        <span class="badge">{chunk.type}</span>
        <span class="spacer" />
        {long ? (
          <button type="button" class="link more" data-testid="chunk-toggle" onClick={props.onToggle}>
            {props.expanded ? "Show less" : "Show more"}
          </button>
        ) : null}
        <CopyButton label="Copy text" testId="copy-chunk-text" text={() => chunk.chunk_content} title="Copy this chunk's text" />
        <CopyButton label="Copy JSON" testId="copy-chunk-json" text={() => json(chunk)} title="Copy this result as the API returned it" />
      </div>
      <div class={`chunk-text${long && !props.expanded ? " collapsed" : ""}`} data-testid="chunk-content">
        {chunk.chunk_content}
      </div>
    </div>
  );
}

/** Ranked chunks, collapsed to a few lines each; each opens alone, or all at once. */
function ChunkList(props: { chunks: readonly (readonly [string, Chunk])[]; title: string; testId: string; empty: string }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const longKeys = props.chunks.filter(([, c]) => isLong(c.chunk_content)).map(([k]) => k);
  const allOpen = longKeys.length > 0 && longKeys.every((k) => open.has(k));
  const toggle = (key: string) => {
    const next = new Set(open);
    if (!next.delete(key)) next.add(key);
    setOpen(next);
  };
  return (
    <Panel
      title={props.title}
      testId={props.testId}
      actions={
        longKeys.length > 0 ? (
          <button type="button" class="link" data-testid={`${props.testId}-expand-all`} onClick={() => setOpen(allOpen ? new Set() : new Set(longKeys))}>
            {allOpen ? "Collapse all" : "Expand all"}
          </button>
        ) : undefined
      }
    >
      {props.chunks.length === 0 ? (
        <p class="hint">{props.empty}</p>
      ) : (
        props.chunks.map(([key, c], i) => <ChunkCard key={key} chunk={c} rank={i + 1} expanded={open.has(key)} onToggle={() => toggle(key)} />)
      )}
    </Panel>
  );
}

function Triplets(props: { paths: readonly Path[]; testId: string }) {
  const [all, setAll] = useState(false);
  const triplets = props.paths.flatMap((p) => p.triplets.map((t) => ({ key: `${p.group_id}:${t.relation.relationship_id}`, t })));
  if (triplets.length === 0) return <p class="hint">None.</p>;
  const shown = all ? triplets : triplets.slice(0, TRIPLETS_SHOWN);
  return (
    <>
      <ul class="triplets" data-testid={props.testId}>
        {shown.map(({ key, t }) => (
          <li key={key}>
            <span class="entity">{t.source.name}</span> <span class="predicate">{t.relation.canonical_predicate || t.relation.raw_predicate}</span>{" "}
            <span class="entity">{t.target.name}</span>
            {t.relation.context ? <span class="hint"> — {t.relation.context}</span> : null}
          </li>
        ))}
      </ul>
      {triplets.length > TRIPLETS_SHOWN ? (
        <button type="button" class="link more" data-testid={`${props.testId}-toggle`} onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${triplets.length}`}
        </button>
      ) : null}
    </>
  );
}

/** The answer: ranked chunks with scores and sources, then graph context and forcefully related context. */
export function QueryResults(props: { answer: QueryAnswer }) {
  const { answer } = props;
  const additional = Object.entries(answer.additional_context);
  return (
    <>
      <ChunkList
        title={`Ranked chunks (${answer.chunks.length})`}
        testId="result-chunks"
        chunks={answer.chunks.map((c) => [c.chunk_uuid, c] as const)}
        empty="No chunk matched."
      />
      <div class="grid-2">
        <Panel title={`Sources (${answer.sources.length})`} testId="result-sources">
          <ul class="plain">
            {answer.sources.map((s) => (
              <li key={`${s.corpus}:${s.id}`}>
                <a href={`${hashWithId("/items", s.id)}${s.corpus === "memory" ? "?type=memory" : ""}`}>{s.title || s.id}</a>{" "}
                <span class="badge">{s.type}</span>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Graph context" testId="result-graph">
          {answer.graph_context ? (
            <>
              <h3>Query paths</h3>
              <Triplets paths={answer.graph_context.query_paths} testId="graph-query-paths" />
              <h3>Chunk relations</h3>
              <Triplets paths={answer.graph_context.chunk_relations} testId="graph-chunk-relations" />
            </>
          ) : (
            <p class="hint">Graph context was not asked for.</p>
          )}
        </Panel>
      </div>
      <ChunkList
        title={`Additional context (${additional.length})`}
        testId="result-additional"
        chunks={additional}
        empty="No forcefully related items (thinking mode with forceful relations adds them)."
      />
    </>
  );
}
