/** A JSON object typed into a field: empty is none; anything but an object is refused with a readable reason. */
export function parseJsonObject(text: string, field: string): Record<string, unknown> | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    throw new Error(`${field} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${field} must be a JSON object such as {"team": "support"}`);
  return value as Record<string, unknown>;
}

/** Principals typed as `alice, team:support`: trimmed, blanks dropped; none is null (no ACL scoping). */
export function parseList(text: string): string[] | null {
  const items = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return items.length === 0 ? null : items;
}
