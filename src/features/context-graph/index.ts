// Public surface of the context graph for other subsystems (query): graph context and the
// items connected to an answer. Building and the HTTP reads are wired in app.ts.
export { GraphContextProvider } from "./graph-context.js";
export type { GraphContextRequest, RetrievedChunk } from "./graph-context.js";
