/** Public surface of the openCypher engine. */
export { executeCypher, DEFAULT_MAX_LIST_LENGTH, DEFAULT_MAX_ROWS, DEFAULT_MAX_STRING_LENGTH, DEFAULT_TIMEOUT_MS, MAX_PARAM_DEPTH } from "./execute.js";
export type { CypherResult, ExecuteOptions } from "./execute.js";
export { renderRows, renderValue } from "./render.js";
export type { JsonValue } from "./render.js";
export { CypherError } from "./errors.js";
export type { CypherErrorPhase, CypherErrorType, SourcePosition } from "./errors.js";
export { MemoryGraphStore } from "./store/memory-graph-store.js";
export type { ChangeSet, GraphStore, IndexDefinition, RelationshipRecord } from "./store/graph-store.js";
export { NodeRef, PathValue, RelRef } from "./values/value.js";
export type { CypherMap, PropertyValue, Value } from "./values/value.js";
export { parseQuery } from "./parser/parse.js";
