import { createEntityResolver, isRelatableKind, scopeKey, type EntityExtraction } from "../../engines/extraction/index.js";
import { normalizeName } from "../../engines/extraction/normalize-name.js";
import type { Executor } from "../../platform/store/db.js";
import { LoadedAliasTable, type IdentityHint } from "./alias-store.js";
import { namedEntities } from "./graph-read-store.js";
import { aliasScopeKey, resolutionScopeOf } from "./graph-write-store.js";
import type { TraversalScope } from "./traversal-store.js";

const MAX_NGRAMS = 300;

/** Word n-grams (1 to 3 words) of the query, normalised like entity names. */
function nameKeysOf(text: string): string[] {
  const words = text.split(/[^\p{L}\p{N}@.'_-]+/u).filter((w) => w.length > 1);
  const keys = new Set<string>();
  for (let n = 1; n <= 3; n += 1) {
    for (let i = 0; i + n <= words.length && keys.size < MAX_NGRAMS; i += 1) {
      const key = normalizeName(words.slice(i, i + n).join(" "));
      if (key.length > 1) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * The stored entities a query names: its mentions (`extraction`, read from the query text in the
 * extraction workers before the read snapshot opens) resolved the way ingestion resolves them (read
 * only: nothing is written back), plus entities whose normalised name is a word n-gram of
 * the query, which catches lowercase names the extractors miss ("what does ada do at acme").
 */
export async function entitiesInQuery(db: Executor, s: TraversalScope, queryText: string, extraction: EntityExtraction): Promise<string[]> {
  const found = new Set<string>();
  const { mentions } = extraction;
  const hints = mentions.flatMap((m): IdentityHint[] =>
    m.kind === "person" ? [{ name: m.surface }] : m.kind === "email" ? [{ email: m.surface }] : m.kind === "mention" ? [{ handle: m.surface }] : [],
  );
  const graph = { orgId: s.orgId, databaseId: s.databaseId, corpus: s.corpus, collection: s.collection };
  const aliases = await LoadedAliasTable.load(db, graph, aliasScopeKey(graph), scopeKey(resolutionScopeOf(graph)), hints);
  const resolver = createEntityResolver(resolutionScopeOf(graph), aliases.table);
  for (const m of mentions) {
    if (!isRelatableKind(m.kind)) continue;
    const entity = resolver.resolveMention(m);
    if (entity !== undefined) found.add(entity.entity_id);
  }
  return namedEntities(db, s, nameKeysOf(queryText), [...found]);
}
