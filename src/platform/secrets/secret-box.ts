import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

export type Opened = { ok: true; secret: string } | { ok: false; reason: string };

/** AES-256-GCM under a key derived from the master key, named by its key id: `v2.<kid>.<iv>.<tag>.<ciphertext>`. */
const SEALED = "v2";
/** Written before the master key existed: sealed under WEBHOOK_SECRET_KEY / CONNECTOR_SECRET_KEY. */
const LEGACY_SEALED = "v1";
/** Written before secrets were encrypted by default; readable, and re-sealed at start. */
const PLAIN = "plain";

interface DerivedKey {
  readonly id: string;
  readonly key: Buffer;
}

function derive(material: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "context-store", purpose, 32));
}

/** A key's public name: an HMAC of a constant, so a sealed value says which key opens it without revealing it. */
export function keyIdOf(material: string, purpose = "key-id"): string {
  return createHmac("sha256", derive(material, purpose)).update("context-store key id").digest("base64url").slice(0, 11);
}

function derived(material: string, purpose: string): DerivedKey {
  return { id: keyIdOf(material, purpose), key: derive(material, purpose) };
}

const b64 = (part: Buffer): string => part.toString("base64url");

function decrypt(key: Buffer, parts: readonly string[]): string | null {
  const [iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !ciphertext || parts.length !== 3) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    // GCM refuses the tag when the key differs or the value was altered: the caller names the reason.
    return null;
  }
}

/** The master keys a process holds: the one that seals, and earlier ones that still open (rotation). */
export interface MasterKeys {
  readonly current: string;
  readonly previous: readonly string[];
}

/** A key variable older than the master key (WEBHOOK_SECRET_KEY, CONNECTOR_SECRET_KEY): opens `v1` values only. */
export interface LegacyKey {
  readonly name: string;
  readonly material: string | null;
}

/**
 * Seals secrets the service must use again (webhook signing secrets, connector credentials,
 * the file-URL secret), so a hash would not do. Each purpose has its own key, derived from the
 * master key (HKDF-SHA256); sealing always uses the current master key, opening takes any key
 * the process holds, found by the key id in the value.
 */
export class SecretBox {
  private readonly current: DerivedKey;
  private readonly openers: ReadonlyMap<string, Buffer>;
  private readonly legacy: Buffer | null;

  constructor(
    keys: MasterKeys,
    purpose: string,
    private readonly legacyKey: LegacyKey | null = null,
  ) {
    this.current = derived(keys.current, purpose);
    this.openers = new Map([this.current, ...keys.previous.map((k) => derived(k, purpose))].map((d) => [d.id, d.key]));
    // v1 values were sealed under HKDF(legacy key, purpose) too: the same derivation opens them.
    this.legacy = legacyKey?.material ? derive(legacyKey.material, purpose) : null;
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.current.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return [SEALED, this.current.id, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join(".");
  }

  /** True when the value is sealed with the current key (nothing to re-seal). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${SEALED}.${this.current.id}.`);
  }

  open(stored: string): Opened {
    const parts = stored.split(".");
    const kind = parts[0];
    if (kind === PLAIN) return { ok: true, secret: stored.slice(PLAIN.length + 1) };
    if (kind === SEALED) {
      const key = this.openers.get(parts[1] ?? "");
      if (!key) return { ok: false, reason: `the secret was sealed with a master key this process does not hold (key id ${parts[1] ?? "?"}); see SECRET_KEY` };
      const secret = decrypt(key, parts.slice(2));
      return secret === null ? { ok: false, reason: "the sealed secret does not open (altered?)" } : { ok: true, secret };
    }
    if (kind === LEGACY_SEALED) {
      const name = this.legacyKey?.name ?? "the legacy key";
      if (!this.legacy) return { ok: false, reason: `the secret is encrypted and ${name} is not set` };
      const secret = decrypt(this.legacy, parts.slice(1));
      // GCM refuses the tag only when the key differs (or the value was altered): that is the reason given.
      return secret === null ? { ok: false, reason: `the secret was sealed with a different ${name}` } : { ok: true, secret };
    }
    return { ok: false, reason: "unknown secret format" };
  }
}
