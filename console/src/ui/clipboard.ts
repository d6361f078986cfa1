// Copying and saving what a screen shows, without a library or an inline script (the page's CSP
// allows neither).

/**
 * Puts `text` on the clipboard. The Clipboard API needs a secure context (https, or this service
 * on localhost); elsewhere (plain http to another host) a selected textarea and the older copy
 * command do it.
 */
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard !== undefined) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    // Deprecated, and the only way without the Clipboard API.
    if (!document.execCommand("copy")) throw new Error("the browser refused to copy");
  } finally {
    area.remove();
  }
}

/** Saves `value` as a pretty-printed JSON file named `fileName` (the browser's download). */
export function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own reference by now; the URL would otherwise live as long as the page.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
