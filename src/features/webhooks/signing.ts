import { createHmac, randomBytes } from "node:crypto";

const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 512;

/** `sha256=` and the lowercase hex HMAC-SHA256 of the exact body bytes sent. */
export function signatureOf(body: Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** A new secret: 32 random bytes, url-safe, with a recognisable prefix. */
export const generateSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`;

export type SecretCheck = { ok: true; secret: string } | { ok: false; reason: string };

export function checkSigningSecret(secret: string): SecretCheck {
  const length = [...secret].length;
  if (length < MIN_SECRET_LENGTH) return { ok: false, reason: `'signing_secret' must be at least ${MIN_SECRET_LENGTH} characters` };
  if (length > MAX_SECRET_LENGTH) return { ok: false, reason: `'signing_secret' must be at most ${MAX_SECRET_LENGTH} characters` };
  return { ok: true, secret };
}
