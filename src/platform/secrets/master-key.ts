import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config.js";
import type { MasterKeys } from "./secret-box.js";

/** The key file's name inside DATA_DIR, used when SECRET_KEY is not set. */
export const KEY_FILE = "secret.key";

export interface MasterKeySettings {
  /** SECRET_KEY: the master key of a fleet (every process the same); null reads or makes the key file. */
  readonly secretKey: string | null;
  /** SECRET_KEY_PREVIOUS: keys that sealed secrets before a rotation; they open, never seal. */
  readonly secretKeyPrevious: readonly string[];
  readonly dataDir: string;
}

export interface LoadedMasterKeys extends MasterKeys {
  /** Where the current key comes from, for the boot log and error messages (never the key). */
  readonly source: string;
  /** True when this call made the key file (first start). */
  readonly created: boolean;
}

/** A key problem an operator fixes (a missing, foreign or exposed key): reported like any configuration error. */
export class MasterKeyError extends ConfigError {}

function readKeyFile(path: string): string {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new MasterKeyError(`${path} is readable by others (mode ${mode.toString(8)}): run chmod 600 ${path}, or set SECRET_KEY`);
  }
  const key = readFileSync(path, "utf8").trim();
  if (key.length < 32) throw new MasterKeyError(`${path} holds no key (fewer than 32 characters): restore it from your backup, or set SECRET_KEY`);
  return key;
}

/**
 * Makes the key file once. Several processes of one DATA_DIR may start at once: the key is written
 * to a private temporary file and linked into place, so a reader never sees a half-written key and
 * the first link wins; the others read the winner's.
 */
function createKeyFile(path: string, dataDir: string): boolean {
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    unlinkSync(temporary);
  }
}

/** SECRET_KEY when set; otherwise DATA_DIR/secret.key, generated (0600) on first start. */
export function loadMasterKeys(settings: MasterKeySettings): LoadedMasterKeys {
  const previous = settings.secretKeyPrevious;
  if (settings.secretKey !== null) return { current: settings.secretKey, previous, source: "SECRET_KEY", created: false };
  const path = join(settings.dataDir, KEY_FILE);
  let created = false;
  try {
    statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    created = createKeyFile(path, settings.dataDir);
  }
  return { current: readKeyFile(path), previous, source: path, created };
}
