import { AppError } from "../../platform/errors/app-error.js";
import type { Corpus } from "./item-types.js";
import type { ResolvedDatabase } from "../databases/tenancy.js";
import type { ItemScope } from "./store.js";

/** The items of one corpus in the collection a request addresses. */
export const scopeFor = (s: ResolvedDatabase, corpus: Corpus): ItemScope => ({ orgId: s.orgId, databaseId: s.databaseId, corpus, collection: s.collection });

/** 404 for an id that is not in the scope: FILE_NOT_FOUND for knowledge, MEMORY_NOT_FOUND for memories. */
export function itemNotFound(corpus: Corpus, id: string): AppError {
  return corpus === "memory" ? new AppError("MEMORY_NOT_FOUND", `Memory '${id}' not found`) : new AppError("FILE_NOT_FOUND", `Source '${id}' not found`);
}
