import { createHash } from "node:crypto";
import type { ContentScope } from "../items/item-types.js";

/**
 * Where a scope's saved search index files live under the index directory, without their
 * extension: `<database>/<corpus>/<hash of the collection>` (collection names may hold any
 * character; a database's folder goes when the database is dropped).
 */
export function indexFileStem(scope: ContentScope): string {
  const collection = createHash("sha1").update(scope.collection).digest("hex").slice(0, 24);
  return `${scope.databaseId}/${scope.corpus}/${collection}`;
}
