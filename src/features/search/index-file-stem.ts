import { createHash } from "node:crypto";
import type { ContentScope } from "../items/item-types.js";
import { AppError } from "../../platform/errors/app-error.js";
import { isGeneratedId } from "../../platform/util/ids.js";

/**
 * Where a scope's saved search index files live under the index directory, without their
 * extension: `<database>/<corpus>/<hash of the collection>` (collection names may hold any
 * character; a database's folder goes when the database is dropped). The database id must be one
 * this service generates, so that the path stays inside the index directory (see id-paths.ts).
 */
export function indexFileStem(scope: ContentScope): string {
  if (!isGeneratedId(scope.databaseId))
    throw new AppError("INVALID_INPUT", `${JSON.stringify(String(scope.databaseId).slice(0, 80))} is not a database id of this service`);
  const collection = createHash("sha1").update(scope.collection).digest("hex").slice(0, 24);
  return `${scope.databaseId}/${scope.corpus}/${collection}`;
}
