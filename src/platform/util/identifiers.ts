/**
 * Rules for the names and identifiers callers choose (database and collection names, item ids,
 * metadata keys, file names, connector names). They are stored, listed, logged and shown in
 * consoles, so beyond a length they must be well-formed Unicode, without control characters (NUL
 * included) and without the bidirectional overrides that make one string display as another.
 * Names people tell apart by reading them (every kind above but item ids) also go without
 * invisible characters, and are taken in Unicode's composed form (NFC): `café` typed with a
 * combining accent names the same database as `café` typed with the accented letter.
 */

/** Database and collection names. */
export const NAME_MAX_LENGTH = 128;
/** Item ids (source ids, memory ids); long enough for `<repo>/<relative path>`. */
const ID_MAX_LENGTH = 512;
/** Keys of `metadata` and `additional_metadata` (top level). */
const KEY_MAX_LENGTH = 256;
/** Uploaded files' names and connectors' display names. */
const LABEL_MAX_LENGTH = 1024;

// C0 and C1 controls and DEL; U+202A-U+202E embeddings/overrides and U+2066-U+2069 isolates.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/**
 * Characters that show as nothing: Unicode's format characters (Cf: zero-width space, joiners and
 * non-joiners, left-to-right and right-to-left marks, the byte order mark, soft hyphen, ...) and the
 * letters drawn blank (Hangul fillers, the blank braille pattern). `db\u200bA` would list as `dbA`.
 */
const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0\u2800]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Names also travel in URLs and paths: no whitespace, '/', '\', '?', '#', '%'. */
const NAME_RESERVED = /[\s/\\?#%]/;

/** Why `value` is not an acceptable identifier, or null when it is. */
export function identifierProblem(value: string, maxLength: number = ID_MAX_LENGTH): string | null {
  if (value.length === 0) return "must not be empty";
  if (value.length > maxLength) return `must be at most ${maxLength} characters (got ${value.length})`;
  if (CONTROL.test(value)) return "must not contain control characters";
  if (BIDI.test(value)) return "must not contain bidirectional override characters (U+202A-U+202E, U+2066-U+2069)";
  if (LONE_SURROGATE.test(value)) return "must be valid Unicode (no lone surrogates)";
  return null;
}

/** A name in the form it is stored and looked up in (NFC); apply it before the rules. */
export const normalizeName = (value: string): string => value.normalize("NFC");

const codePoint = (c: string): string => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Names people read (file names, display names, metadata keys, graph database names): identifier rules, and nothing invisible. */
export function labelProblem(value: string, maxLength: number = LABEL_MAX_LENGTH): string | null {
  const problem = identifierProblem(value, maxLength);
  if (problem) return problem;
  const invisible = INVISIBLE.exec(value);
  if (invisible) return `must not contain invisible characters (zero-width, direction marks, format characters; found ${codePoint(invisible[0])})`;
  return null;
}

/** Database and collection names: label rules, at most 128 characters, no URL-significant characters. */
export function nameProblem(value: string): string | null {
  const problem = labelProblem(value, NAME_MAX_LENGTH);
  if (problem) return problem;
  if (NAME_RESERVED.test(value)) return "must not contain whitespace, '/', '\\', '?', '#' or '%'";
  return null;
}

/** The first top-level key of an object that breaks the key rules, with its problem. */
export function keyProblem(obj: Readonly<Record<string, unknown>>): string | null {
  for (const key of Object.keys(obj)) {
    const problem = labelProblem(key, KEY_MAX_LENGTH);
    if (problem) return `key '${key.slice(0, 40)}' ${problem}`;
  }
  return null;
}
