/** Public surface of the openCypher engine. */
export { executeCypher, MAX_PARAM_DEPTH } from "./execute.js";
export { renderRows } from "./render.js";
export { CypherError } from "./errors.js";
export { MemoryGraphStore } from "./store/memory-graph-store.js";
export type { ChangeSet, IndexDefinition } from "./store/graph-store.js";
export type { PropertyValue } from "./values/value.js";
export { parseQuery } from "./parser/parse.js";
