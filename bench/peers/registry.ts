/** The systems of bench:peers, in table order; each is imported only in its own child process. */
import type { PeerSystem } from "./types.js";

export interface SystemEntry {
  readonly name: string;
  /** Why it cannot run here, or null. */
  readonly skip: () => string | null;
  readonly create: () => Promise<PeerSystem & { notes?: () => string }>;
}

export const SYSTEMS: SystemEntry[] = [
  { name: "us", skip: () => null, create: async () => (await import("./us.js")).createUs() },
  { name: "LanceDB", skip: () => null, create: async () => (await import("./lancedb.js")).createLanceDb() },
  { name: "Orama", skip: () => null, create: async () => (await import("./orama.js")).createOrama() },
  { name: "MiniSearch", skip: () => null, create: async () => (await import("./minisearch.js")).createMiniSearch() },
  {
    name: "PostgreSQL",
    skip: () => (process.env.DATABASE_URL ? null : "skipped: DATABASE_URL is not set (a PostgreSQL with pgvector is needed)"),
    create: async () => (await import("./postgres.js")).createPostgres(process.env.PEERS_DATABASE_URL ?? ""),
  },
  { name: "mem0", skip: () => null, create: async () => (await import("./mem0.js")).createMem0() },
];
