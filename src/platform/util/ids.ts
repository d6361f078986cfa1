import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** API keys: 32 random bytes, url-safe, with a recognisable prefix. */
export const newApiKey = (): string => `csk_${randomBytes(32).toString("base64url")}`;

/** Keys are high-entropy random tokens, so a fast hash is enough; they are never stored raw. */
export const hashApiKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex");

/** A few leading characters so operators can tell keys apart; never enough to be the key. */
export const displayPrefix = (key: string): string => key.slice(0, Math.min(8, Math.floor(key.length / 4)));
