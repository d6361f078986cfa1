/**
 * PostgreSQL used directly, as many teams do (pg client, one table per corpus): a stored generated
 * `tsvector` column (to_tsvector 'english') with a GIN index ranked by ts_rank_cd, and our vectors in
 * `vector(512)` with an HNSW index (vector_cosine_ops, pgvector defaults m 16, ef_construction 64),
 * fused by reciprocal rank fusion (k 60) in one SQL statement. Stated choices: the question's terms
 * are ORed (plainto_tsquery's & replaced by |; an AND of a whole question matches almost nothing),
 * and hnsw.ef_search is raised from 40 to 100 when more than 40 results are asked (knowledge set),
 * since an HNSW scan returns at most ef_search rows. Tables are dropped at the end.
 */
import pg from "pg";
import type { PeerSystem, Question } from "./types.js";

const literal = (v: Float32Array): string => `[${Array.from(v).join(",")}]`;
const TSQUERY = `to_tsquery('english', replace(plainto_tsquery('english', $2)::text, '&', '|'))`;

function sql(mode: string, table: string): string {
  const dense = `select id, doc, row_number() over (order by embedding <=> $1::vector) as r from (select id, doc, embedding from ${table} order by embedding <=> $1::vector limit $3) d`;
  const text = `select id, doc, row_number() over (order by s desc) as r from (select id, doc, ts_rank_cd(tsv, q) as s from ${table}, ${TSQUERY} q where tsv @@ q order by s desc limit $3) t`;
  if (mode === "pgvector") return `select doc from (${dense}) x where $2::text is not null order by r`;
  if (mode === "tsvector") return `select doc from (${text}) x where $1::text is not null order by r`;
  return `with v as (${dense}), t as (${text})
    select coalesce(v.doc, t.doc) as doc from v full join t on v.id = t.id
    order by coalesce(1.0 / (60 + v.r), 0) + coalesce(1.0 / (60 + t.r), 0) desc limit $3`;
}

export async function createPostgres(url: string): Promise<PeerSystem> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("create extension if not exists vector");
  const tables = new Map<string, string>();
  return {
    modes: ["tsvector", "pgvector (HNSW)", "RRF fused"],
    embedsQueries: false,
    async index(data) {
      for (const [n, c] of data.corpora.entries()) {
        const table = `peers_${data.name}_${n}`;
        await client.query(`drop table if exists ${table}`);
        await client.query(
          `create table ${table} (id text primary key, doc text not null, text text not null, tsv tsvector generated always as (to_tsvector('english', text)) stored, embedding vector(512) not null)`,
        );
        for (let i = 0; i < c.items.length; i += 200) {
          const rows = c.items.slice(i, i + 200);
          await client.query(`insert into ${table} (id, doc, text, embedding) select * from unnest($1::text[], $2::text[], $3::text[], $4::vector[])`, [
            rows.map((r) => r.id),
            rows.map((r) => r.doc),
            rows.map((r) => r.text),
            rows.map((r) => literal(r.vector)),
          ]);
        }
        await client.query(`create index on ${table} using gin (tsv)`);
        await client.query(`create index on ${table} using hnsw (embedding vector_cosine_ops)`);
        await client.query(`analyze ${table}`);
        tables.set(c.name, table);
      }
      if (data.depth > 40) await client.query("set hnsw.ef_search = 100");
    },
    async search(mode: string, q: Question, depth: number) {
      const table = tables.get(q.corpus);
      if (!table) throw new Error(`no table for ${q.corpus}`);
      const res = await client.query<{ doc: string }>(sql(mode.split(" ")[0]!, table), [literal(q.vector), q.text, depth]);
      return res.rows.map((r) => r.doc);
    },
    async close() {
      for (const table of tables.values()) await client.query(`drop table if exists ${table}`);
      await client.end();
    },
  };
}
