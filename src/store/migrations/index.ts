import { migration0001 } from "./0001-foundation.js";
import { migration0002 } from "./0002-graph.js";
import type { Migration } from "./migration.js";

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002];
