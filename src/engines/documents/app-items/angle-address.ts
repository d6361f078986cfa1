/**
 * `Name <address>`: what `^(.*?)<([^>]+)>$` matched, found with two searches instead. That pattern
 * backtracks quadratically on "<a <a <a ..." (100 kB took 9 s of the ingestion thread).
 */
export function angleAddress(text: string): { name: string; address: string } | null {
  if (!text.endsWith(">")) return null;
  // The address starts at the first "<" after the last ">" before the final one.
  const open = text.indexOf("<", text.lastIndexOf(">", text.length - 2) + 1);
  if (open < 0 || open > text.length - 3) return null;
  const name = text.slice(0, open);
  // The pattern's `.` did not cross a line break.
  if (/[\n\r\u2028\u2029]/.test(name)) return null;
  return { name, address: text.slice(open + 1, -1) };
}
