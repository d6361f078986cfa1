import type { Migration } from "./migration.js";

/**
 * A chunk's BM25 postings move into its own row, as one JSON object of term to frequency
 * (`context_chunks.terms`), and the table of one row per term and chunk goes. The in-process BM25
 * indexes read postings only by chunk key (migration 0020), so the per-term rows bought nothing:
 * at 110,000 knowledge chunks they were 5.9 million rows and 1,024 MB with their two indexes, of a
 * 1.6 GB store, against about 70 MB as one column; and a group of items made searchable wrote each
 * of them (2.1 ms of a 6.8 ms group step, bench:query --during-ingest). The frequencies are copied
 * as they are, so the indexes built from them are the same.
 */
export const migration0022: Migration = {
  version: 22,
  name: "postings-in-chunks",
  sqlite: [
    `ALTER TABLE context_chunks ADD COLUMN terms TEXT`,
    `UPDATE context_chunks SET terms = (SELECT json_group_object(t.term, t.tf) FROM context_terms t WHERE t.chunk_key = context_chunks.chunk_key)`,
    `DROP TABLE context_terms`,
  ],
  postgres: [
    `ALTER TABLE context_chunks ADD COLUMN terms TEXT`,
    `UPDATE context_chunks c SET terms = p.terms
       FROM (SELECT chunk_key, json_object_agg(term, tf)::text AS terms FROM context_terms GROUP BY chunk_key) p
       WHERE p.chunk_key = c.chunk_key`,
    `DROP TABLE context_terms`,
  ],
};
