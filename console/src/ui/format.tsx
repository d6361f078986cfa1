/** Small display helpers shared by the screens. */

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The badge colour of a status word: finished, failed, or on its way. */
function statusTone(status: string): "ok" | "bad" | "warn" {
  if (["ready", "completed", "success", "recorded", "active"].includes(status)) return "ok";
  if (["errored", "failed", "error"].includes(status)) return "bad";
  return "warn";
}

export function StatusBadge(props: { status: string; testId?: string }) {
  return (
    <span class={`badge ${statusTone(props.status)}`} data-testid={props.testId}>
      {props.status}
    </span>
  );
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
