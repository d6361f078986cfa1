/** The value of one series of a Prometheus exposition text (labels in the order prom-client writes them), or null when absent. */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | null {
  const rendered = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  const head = rendered === "" ? `${name} ` : `${name}{${rendered}} `;
  const line = text.split("\n").find((l) => l.startsWith(head));
  return line === undefined ? null : Number(line.slice(head.length));
}
