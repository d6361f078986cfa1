import { createHmac, timingSafeEqual } from "node:crypto";

/** What a signed file URL grants: one blob of one item, until `expiresAt` (epoch seconds). Both ids are UUIDs. */
export interface FileGrant {
  itemId: string;
  blobId: string;
  expiresAt: number;
}

export type FileTokenCheck = { ok: true; grant: FileGrant } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

// A compact binary grant keeps the token well under the router's 100-character path-parameter limit:
// item UUID (16 bytes) + blob UUID (16) + expiry (6, big-endian seconds), then 16 bytes of HMAC-SHA256.
const GRANT_BYTES = 38;
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const mac = (secret: string, grant: Buffer): Buffer => createHmac("sha256", secret).update(grant).digest().subarray(0, MAC_BYTES);
const uuidBytes = (id: string): Buffer => {
  if (!UUID.test(id)) throw new Error(`not a UUID: ${id}`);
  return Buffer.from(id.replace(/-/g, ""), "hex");
};
const uuidText = (b: Buffer): string => {
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** base64url of grant bytes followed by their truncated HMAC-SHA256 under `secret`. */
export function signFileToken(secret: string, grant: FileGrant): string {
  const bytes = Buffer.alloc(GRANT_BYTES);
  uuidBytes(grant.itemId).copy(bytes, 0);
  uuidBytes(grant.blobId).copy(bytes, 16);
  bytes.writeUIntBE(Math.max(0, Math.floor(grant.expiresAt)), 32, 6);
  return Buffer.concat([bytes, mac(secret, bytes)]).toString("base64url");
}

/** Checks the signature first (in constant time), then the expiry against `nowSeconds`. */
export function verifyFileToken(secret: string, token: string, nowSeconds: number): FileTokenCheck {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: "malformed" };
  const raw = Buffer.from(token, "base64url");
  // Node's decoder drops trailing characters that do not make a whole byte: only the one
  // canonical spelling of the bytes is the token, so an appended character is not accepted.
  if (raw.length !== GRANT_BYTES + MAC_BYTES || raw.toString("base64url") !== token) return { ok: false, reason: "malformed" };
  const bytes = raw.subarray(0, GRANT_BYTES);
  if (!timingSafeEqual(raw.subarray(GRANT_BYTES), mac(secret, bytes))) return { ok: false, reason: "bad_signature" };
  const expiresAt = bytes.readUIntBE(32, 6);
  if (expiresAt <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, grant: { itemId: uuidText(bytes.subarray(0, 16)), blobId: uuidText(bytes.subarray(16, 32)), expiresAt } };
}
