export { parseFile } from "./parse-file.js";
export type { ParseOptions } from "./parse-file.js";
export { checkArchive, checkArchiveDirectory } from "./archive-limits.js";
export type { ArchiveLimits } from "./archive-limits.js";
export { detectFormat } from "./detect-format.js";
export type * from "./parsed-document.js";
export { ParserPool } from "./parser-pool.js";
