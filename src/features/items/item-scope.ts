import { AppError } from "../../platform/errors/app-error.js";
import { defaultCollectionOf, type DatabaseService } from "../databases/service.js";
import type { DatabaseRow } from "../databases/store.js";
import type { Corpus } from "../../platform/store/schema.js";
import type { ItemScope } from "./store.js";

/** Where a request addressing items by id points: its database row and the collection within it. */
export interface ResolvedScope {
  database: DatabaseRow;
  collection: string;
}

export async function resolveItemScope(databases: DatabaseService, orgId: string, database: string, collection: string | undefined): Promise<ResolvedScope> {
  const row = await databases.get(orgId, database);
  return { database: row, collection: collection ?? defaultCollectionOf(row) };
}

export const scopeFor = (s: ResolvedScope, corpus: Corpus): ItemScope => ({ databaseId: s.database.id, corpus, collection: s.collection });

/** 404 for an id that is not in the scope: FILE_NOT_FOUND for knowledge, MEMORY_NOT_FOUND for memories. */
export function itemNotFound(corpus: Corpus, id: string): AppError {
  return corpus === "memory" ? new AppError("MEMORY_NOT_FOUND", `Memory '${id}' not found`) : new AppError("FILE_NOT_FOUND", `Source '${id}' not found`);
}
