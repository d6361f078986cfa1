import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

export type Opened = { ok: true; secret: string } | { ok: false; reason: string };

const SEALED = "v1";
const PLAIN = "plain";

/**
 * Stores secrets (webhook signing secrets, connector credentials) so that the service can still sign with them (a hash
 * would not do). With WEBHOOK_SECRET_KEY set they are encrypted with AES-256-GCM under a
 * key derived from it (HKDF-SHA256); without it they are stored as they are, marked
 * `plain`. Rows written either way stay readable after the key is configured; an
 * encrypted row cannot be opened without the key that sealed it.
 */
export class SecretBox {
  private readonly key: Buffer | null;

  /**
   * `purpose` separates the keys derived for different secrets (webhook signing secrets,
   * connector credentials); `keyName` is the variable named in error messages.
   */
  constructor(
    keyMaterial: string | null,
    purpose = "webhook-signing-secret",
    private readonly keyName = "WEBHOOK_SECRET_KEY",
  ) {
    this.key = keyMaterial ? Buffer.from(hkdfSync("sha256", keyMaterial, "context-store", purpose, 32)) : null;
  }

  seal(secret: string): string {
    if (!this.key) return `${PLAIN}.${secret}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return [SEALED, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  open(stored: string): Opened {
    const dot = stored.indexOf(".");
    const kind = stored.slice(0, dot);
    if (kind === PLAIN) return { ok: true, secret: stored.slice(dot + 1) };
    if (kind !== SEALED) return { ok: false, reason: "unknown secret format" };
    if (!this.key) return { ok: false, reason: `the secret is encrypted and ${this.keyName} is not set` };
    const [iv, tag, ciphertext] = stored
      .slice(dot + 1)
      .split(".")
      .map((p) => Buffer.from(p, "base64url"));
    if (!iv || !tag || !ciphertext) return { ok: false, reason: "malformed sealed secret" };
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAuthTag(tag);
      return { ok: true, secret: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8") };
    } catch {
      // GCM refuses the tag only when the key differs (or the value was altered): that is the reason given.
      return { ok: false, reason: `the secret was sealed with a different ${this.keyName}` };
    }
  }
}
