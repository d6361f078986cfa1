// Normalised keys decide when two surface forms name the same thing, so every rule here is a
// resolution rule: change one and previously distinct entities may merge (or split).

const TITLES = new Set(["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "madam", "dame"]);

/** Removes diacritics, keeping the base letters ("Núñez" -> "Nunez"). */
function stripDiacritics(value: string): string {
  return value.normalize("NFKD").replace(/\p{M}+/gu, "");
}

/** Drops a trailing possessive: "Ada's", "Ada’s", "James'" -> "Ada", "James". */
function stripPossessive(value: string): string {
  return value.replace(/(?:['’]s|(?<=s)['’])$/iu, "");
}

/**
 * Canonical form of a person, place, organisation or product name: diacritics, case, inner
 * whitespace, possessives, honorifics and punctuation other than inner hyphens/apostrophes removed.
 */
export function normalizeName(value: string): string {
  const words = stripDiacritics(value)
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .split(/\s+/u)
    .map((word) => stripPossessive(word).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word.length > 0);
  while (words.length > 1 && TITLES.has(words[0] ?? "")) words.shift();
  return words.join(" ");
}

export function normalizeEmail(value: string): string {
  return value
    .trim()
    .replace(/^mailto:/i, "")
    .toLowerCase();
}

/** Handles are compared without the leading `@` and case-insensitively, as Slack and GitHub do. */
export function normalizeHandle(value: string): string {
  return stripDiacritics(value.trim().replace(/^@+/, "")).toLowerCase();
}

export function normalizeHashtag(value: string): string {
  return stripDiacritics(value.trim().replace(/^#+/, "")).toLowerCase();
}

/** URLs keep their path case (paths are case-sensitive) but lose scheme case, `www.` and a trailing slash. */
export function normalizeUrl(value: string): string {
  const trimmed = value.trim().replace(/[).,;:!?]+$/, "");
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]+)(.*)$/i.exec(trimmed);
  if (match === null) return trimmed.toLowerCase();
  const host = (match[2] ?? "").toLowerCase().replace(/^www\./, "");
  const rest = (match[3] ?? "").replace(/\/$/, "");
  return `${host}${rest}`;
}

/** Money keys keep the currency symbol and the digits: "$1,200.00" -> "$1200.00". */
export function normalizeAmount(value: string): string {
  return value.replace(/[\s,]/g, "").toLowerCase();
}

/** First word of a normalised full name, used to resolve first-name-only mentions. */
export function firstNameOf(normalizedName: string): string {
  const space = normalizedName.indexOf(" ");
  return space === -1 ? normalizedName : normalizedName.slice(0, space);
}
