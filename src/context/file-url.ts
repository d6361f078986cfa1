import { createHmac, timingSafeEqual } from "node:crypto";

/** What a signed file URL grants: one blob of one item, until `expiresAt` (epoch seconds). */
export interface FileGrant {
  itemId: string;
  blobId: string;
  expiresAt: number;
}

export type FileTokenCheck = { ok: true; grant: FileGrant } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

const mac = (secret: string, payload: string): Buffer => createHmac("sha256", secret).update(payload).digest();

/** `<base64url(JSON grant)>.<base64url(HMAC-SHA256(secret, first part))>` */
export function signFileToken(secret: string, grant: FileGrant): string {
  const payload = Buffer.from(JSON.stringify({ i: grant.itemId, b: grant.blobId, e: grant.expiresAt })).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

/** Checks the signature first (in constant time), then the expiry against `nowSeconds`. */
export function verifyFileToken(secret: string, token: string, nowSeconds: number): FileTokenCheck {
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: "malformed" };
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad_signature" };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const g = decoded as { i?: unknown; b?: unknown; e?: unknown };
  if (typeof g.i !== "string" || typeof g.b !== "string" || typeof g.e !== "number") return { ok: false, reason: "malformed" };
  if (g.e <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, grant: { itemId: g.i, blobId: g.b, expiresAt: g.e } };
}
