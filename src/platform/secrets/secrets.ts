import type { Logger } from "pino";
import type { Executor } from "../store/db.js";
import { SettingsStore } from "../store/settings.js";
import { loadMasterKeys, MasterKeyError, type MasterKeySettings } from "./master-key.js";
import { resealAll } from "./reseal.js";
import { SealedSecretsStore } from "./sealed-secrets-store.js";
import { keyIdOf, SecretBox } from "./secret-box.js";

/** The boxes of every secret the service keeps, all under one master key. */
export interface Secrets {
  readonly webhooks: SecretBox;
  readonly connectors: SecretBox;
  readonly fileUrl: SecretBox;
  /** The current master key's id (public; the settings row `secret_key_id` holds the store's). */
  readonly keyId: string;
}

export interface SecretSettings extends MasterKeySettings {
  /** Pre-master-key variables: they open the `v1` values they sealed, which are then re-sealed. */
  readonly webhookSecretKey: string | null;
  readonly connectorSecretKey: string | null;
}

const KEY_ID_SETTING = "secret_key_id";

/** The boxes for the settings' keys, without touching any store (tests of the format, the CLI's key check). */
export function secretBoxes(settings: SecretSettings): Secrets & { readonly source: string; readonly created: boolean } {
  const keys = loadMasterKeys(settings);
  return {
    // The purposes are those v1 values were sealed under, so their legacy keys still open them.
    webhooks: new SecretBox(keys, "webhook-signing-secret", { name: "WEBHOOK_SECRET_KEY", material: settings.webhookSecretKey }),
    connectors: new SecretBox(keys, "connector-credentials", { name: "CONNECTOR_SECRET_KEY", material: settings.connectorSecretKey }),
    fileUrl: new SecretBox(keys, "file-url-secret"),
    keyId: keyIdOf(keys.current),
    source: keys.source,
    created: keys.created,
  };
}

/**
 * Opens the service's secrets at start (in system scope): loads the master key, checks it is the
 * store's (a process with another key would seal what the rest of the fleet cannot open, so it
 * does not start), re-seals every secret not yet under it, then records it as the store's key.
 */
export async function openSecrets(settings: SecretSettings, db: Executor, logger: Logger, now: number): Promise<Secrets> {
  const boxes = secretBoxes(settings);
  const previousIds = settings.secretKeyPrevious.map((k) => keyIdOf(k));
  if (boxes.created) logger.info({ keyFile: boxes.source }, "generated the master key that encrypts secrets at rest: back it up apart from the data");
  if (settings.webhookSecretKey || settings.connectorSecretKey) {
    logger.warn("WEBHOOK_SECRET_KEY and CONNECTOR_SECRET_KEY only open secrets sealed before SECRET_KEY; once re-sealed they can be removed");
  }
  const store = new SettingsStore(db);
  const storeKeyId = await store.getOrCreate(KEY_ID_SETTING, () => boxes.keyId, now);
  if (storeKeyId !== boxes.keyId && !previousIds.includes(storeKeyId)) {
    throw new MasterKeyError(
      `this store's secrets are sealed with master key ${storeKeyId}, but this process holds key ${boxes.keyId} (from ${boxes.source}): ` +
        "start it with the store's key (SECRET_KEY, or the secret.key file of the DATA_DIR that made the store); to rotate, put the old key in SECRET_KEY_PREVIOUS",
    );
  }
  const sealed = new SealedSecretsStore(db);
  const count = await resealAll(sealed, boxes);
  if (count.resealed > 0) logger.info({ resealed: count.resealed, keyId: boxes.keyId }, "secrets at rest re-sealed under the current master key");
  if (count.unopenable > 0) {
    logger.warn(
      { unopenable: count.unopenable },
      "some stored secrets open with no key this process holds (see SECRET_KEY_PREVIOUS, WEBHOOK_SECRET_KEY, CONNECTOR_SECRET_KEY)",
    );
  }
  if (storeKeyId !== boxes.keyId) {
    await sealed.recordKeyId(KEY_ID_SETTING, storeKeyId, boxes.keyId);
  }
  return boxes;
}
