/**
 * Decodes uploaded text. UTF-8 (with or without BOM) is tried strictly first; files that are not
 * valid UTF-8 are almost always Windows-1252/latin-1 exports (spreadsheets, old editors), so that
 * is the fallback rather than replacement characters.
 */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Not valid UTF-8: decoded as Windows-1252 instead, as described above.
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r\n?/g, "\n");
}
