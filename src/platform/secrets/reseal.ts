import type { SealedSecretsStore } from "./sealed-secrets-store.js";
import type { SecretBox } from "./secret-box.js";

/** What one start's re-sealing did: values moved to the current key, and values no key here opens. */
export interface ResealCount {
  resealed: number;
  unopenable: number;
}

/** Legacy file-URL secrets were stored bare (base64url, no dot): they read as plain. */
export const asSealedForm = (value: string): string => (value.includes(".") ? value : `plain.${value}`);

export interface ResealBoxes {
  readonly webhooks: SecretBox;
  readonly connectors: SecretBox;
  readonly fileUrl: SecretBox;
}

/** Every secret at rest, re-sealed under the current master key: plaintext rows, v1 rows and rows of a previous key. */
export async function resealAll(store: SealedSecretsStore, boxes: ResealBoxes): Promise<ResealCount> {
  const count: ResealCount = { resealed: 0, unopenable: 0 };
  for (const value of await store.all()) {
    const box = boxes[value.kind];
    if (box.isCurrent(value.stored)) continue;
    const opened = box.open(asSealedForm(value.stored));
    if (!opened.ok) {
      count.unopenable += 1;
      continue;
    }
    await store.replace(value, box.seal(opened.secret));
    count.resealed += 1;
  }
  return count;
}
