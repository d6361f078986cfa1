import { invalidInput } from "../../platform/errors/app-error.js";
import type { ProviderDescriptor } from "./provider.js";

const MAX_CUSTOM_INSTRUCTIONS = 4000;
const DEFAULT_LOOKBACK_DAYS = 30;
const MAX_LOOKBACK_DAYS = 3650;
export const MAX_RESOURCE_METADATA_BYTES = 16 * 1024;
export const MAX_RESOURCE_ADDITIONAL_BYTES = 1024;

/** 0 or absent selects the provider default; anything else must lie within the provider's bounds (never clamped). */
export function resolveInterval(value: number | undefined | null, d: ProviderDescriptor): number {
  if (value === undefined || value === null || value === 0) return d.defaultSyncIntervalSeconds;
  if (!Number.isInteger(value) || value < d.minSyncIntervalSeconds || value > d.maxSyncIntervalSeconds) {
    throw invalidInput(
      `sync_interval_seconds must be 0 (the provider default, ${d.defaultSyncIntervalSeconds}) or an integer from ${d.minSyncIntervalSeconds} to ${d.maxSyncIntervalSeconds} for ${d.provider}; got ${value}`,
    );
  }
  return value;
}

/** At most 4,000 characters (code points, not bytes). */
export function checkInstructions(value: string, field = "custom_instructions"): string {
  const length = [...value].length;
  if (length > MAX_CUSTOM_INSTRUCTIONS) throw invalidInput(`${field} must be at most ${MAX_CUSTOM_INSTRUCTIONS} characters; got ${length}`);
  return value;
}

export function checkJsonSize(field: string, value: unknown, maxBytes: number): string {
  const text = JSON.stringify(value ?? {});
  if (Buffer.byteLength(text, "utf8") > maxBytes) throw invalidInput(`${field} must be at most ${maxBytes} bytes of compact JSON`);
  return text;
}

export function checkLookback(value: number | undefined | null): number {
  if (value === undefined || value === null) return DEFAULT_LOOKBACK_DAYS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LOOKBACK_DAYS) throw invalidInput(`lookback_days must be an integer from 1 to ${MAX_LOOKBACK_DAYS}`);
  return value;
}
