import type { ApiClient } from "../../../src/client/api-client.js";
import type { paths } from "../../../src/client/api-types.js";
import { hashWithId } from "../ui/hash-route.js";
import { Panel } from "../ui/page.js";

type QueryBody = paths["/query"]["post"]["requestBody"]["content"]["application/json"];

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

function ChunkCard(props: { chunk: Chunk; rank: number }) {
  const { chunk } = props;
  const link = `${hashWithId("/items", chunk.source_id)}${chunk.type === "memory" ? "?type=memory" : ""}`;
  return (
    <div class="chunk" data-testid="result-chunk">
      <div class="chunk-meta">
        <span class="rank">#{props.rank}</span>
        <span>
          score <b data-testid="chunk-score">{chunk.relevancy_score.toFixed(3)}</b>
        </span>
        <a href={link} data-testid="chunk-source">
          {chunk.source_title || chunk.source_id}
        </a>
        {chunk.section_path.length > 0 ? <span>{chunk.section_path.join(" › ")}</span> : null}
        {chunk.page !== null ? <span>page {chunk.page}</span> : null}
        <span class="badge">{chunk.type}</span>
      </div>
      <div class="chunk-text" data-testid="chunk-content">
        {chunk.chunk_content}
      </div>
    </div>
  );
}

function Triplets(props: { paths: readonly Path[]; testId: string }) {
  if (props.paths.length === 0) return <p class="hint">None.</p>;
  return (
    <ul class="triplets" data-testid={props.testId}>
      {props.paths.flatMap((p) =>
        p.triplets.map((t) => (
          <li key={`${p.group_id}:${t.relation.relationship_id}`}>
            <span class="entity">{t.source.name}</span> <span class="predicate">{t.relation.canonical_predicate || t.relation.raw_predicate}</span>{" "}
            <span class="entity">{t.target.name}</span>
            {t.relation.context ? <span class="hint"> — {t.relation.context}</span> : null}
          </li>
        )),
      )}
    </ul>
  );
}

/** The answer: ranked chunks with scores and sources, then graph context and forcefully related context. */
export function QueryResults(props: { answer: QueryAnswer }) {
  const { answer } = props;
  const additional = Object.entries(answer.additional_context);
  return (
    <>
      <Panel title={`Ranked chunks (${answer.chunks.length})`} testId="result-chunks">
        {answer.chunks.length === 0 ? (
          <p class="hint">No chunk matched.</p>
        ) : (
          answer.chunks.map((c, i) => <ChunkCard key={c.chunk_uuid} chunk={c} rank={i + 1} />)
        )}
      </Panel>
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
      <Panel title={`Additional context (${additional.length})`} testId="result-additional">
        {additional.length === 0 ? (
          <p class="hint">No forcefully related items (thinking mode with forceful relations adds them).</p>
        ) : (
          additional.map(([key, c], i) => <ChunkCard key={key} chunk={c} rank={i + 1} />)
        )}
      </Panel>
    </>
  );
}
