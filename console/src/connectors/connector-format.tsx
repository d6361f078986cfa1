// Small renderings shared by the connector screens: lifecycle and status badges, times.

const TONE: Readonly<Record<string, string>> = {
  active: "ok",
  healthy: "ok",
  ok: "ok",
  complete: "ok",
  completed: "ok",
  delivered: "ok",
  syncing: "busy",
  running: "busy",
  queued: "busy",
  checking: "busy",
  ingesting: "busy",
  pending: "busy",
  pending_setup: "idle",
  idle: "idle",
  empty: "idle",
  unknown: "idle",
  paused: "warn",
  degraded: "warn",
  reconnect: "bad",
  failed: "bad",
};

export function Badge(props: { value: string; testId?: string }) {
  return (
    <span class={`badge ${TONE[props.value] ?? "idle"}`} data-testid={props.testId}>
      {props.value.replace(/_/g, " ")}
    </span>
  );
}

/** An ISO time as the browser's local date and time; "never" for null or empty. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
