import { randomBytes } from "node:crypto";
import type { Store } from "../../platform/store/db.js";
import { SettingsStore } from "../../platform/store/settings.js";

/**
 * The secret signing file download URLs: FILE_URL_SECRET when configured, else one random
 * secret per data store, created by the first node and read by all others.
 */
export async function fileUrlSecret(configured: string | null, store: Store): Promise<string> {
  if (configured !== null) return configured;
  return new SettingsStore(store.db).getOrCreate("file_url_secret", () => randomBytes(32).toString("base64url"), Date.now());
}
