import { createHash, randomBytes } from "node:crypto";
import { v7 } from "uuid";

/**
 * Row ids: UUIDv7, time-ordered (a millisecond timestamp, then random bits), so rows created
 * together sit together in every index keyed by them (jobs, items, chunks) instead of one page of
 * each index per row: a group write of the ingestion pipeline dirtied a page per row of each such
 * index, and at millions of rows random keys turn every insert into a cache miss.
 */
export const newId = (): string => v7();

/** API keys: 32 random bytes, url-safe, with a recognisable prefix. */
export const newApiKey = (): string => `csk_${randomBytes(32).toString("base64url")}`;

/** Keys are high-entropy random tokens, so a fast hash is enough; they are never stored raw. */
export const hashApiKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex");

/** A few leading characters so operators can tell keys apart; never enough to be the key. */
export const displayPrefix = (key: string): string => key.slice(0, Math.min(8, Math.floor(key.length / 4)));

/**
 * The text form of every row id the service makes: newId's UUIDv7, and the UUIDv4 of stores from
 * before it (lowercase hex in 8-4-4-4-12 groups). Ids that reach a file path (a file's bytes on the
 * embedded backend) or come from outside (an imported archive) must have it: nothing else can
 * hold `/`, `..` or an absolute path.
 */
const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isGeneratedId = (value: unknown): value is string => typeof value === "string" && GENERATED_ID.test(value);
