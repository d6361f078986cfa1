/**
 * Accepts ISO 8601 / RFC 2822 strings, epoch seconds or milliseconds as numbers, and numeric
 * strings such as Slack's `"1700000000.123456"`. Returns ISO 8601 UTC, or undefined when the value
 * is not a date. Epoch values below 1e11 are read as seconds (1e11 s is the year 5138).
 */
export function normalizeTimestamp(value: unknown): string | undefined {
  let ms: number;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    ms = Math.abs(value) < 1e11 ? value * 1000 : value;
  } else if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed.length === 0) return undefined;
    if (/^-?\d+(\.\d+)?$/.test(trimmed)) {
      const n = Number(trimmed);
      ms = Math.abs(n) < 1e11 ? n * 1000 : n;
    } else {
      ms = Date.parse(trimmed);
    }
  } else {
    return undefined;
  }
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
