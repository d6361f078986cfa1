import { randomBytes } from "node:crypto";
import type { Store } from "../../platform/store/db.js";
import { asSealedForm } from "../../platform/secrets/reseal.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import { SettingsStore } from "../../platform/store/settings.js";

/**
 * The secret signing file download URLs: FILE_URL_SECRET when configured, else one random
 * secret per data store, created by the first node, sealed under the master key, and read by all others.
 */
export async function fileUrlSecret(configured: string | null, store: Store, box: SecretBox): Promise<string> {
  if (configured !== null) return configured;
  const stored = await new SettingsStore(store.db).getOrCreate("file_url_secret", () => box.seal(randomBytes(32).toString("base64url")), Date.now());
  const opened = box.open(asSealedForm(stored));
  if (!opened.ok) throw new Error(`the file-URL secret cannot be opened: ${opened.reason}`);
  return opened.secret;
}
