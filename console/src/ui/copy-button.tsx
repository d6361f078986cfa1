import { useEffect, useState } from "preact/hooks";
import { copyText } from "./clipboard.js";

/** A button that copies what `text()` returns and says so for a moment (or why it could not). */
export function CopyButton(props: { label: string; text: () => string; testId: string; title?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return undefined;
    const timer = window.setTimeout(() => setState("idle"), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      class="small"
      data-testid={props.testId}
      data-state={state}
      title={props.title}
      onClick={() =>
        void copyText(props.text()).then(
          () => setState("copied"),
          () => setState("failed"),
        )
      }
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : props.label}
    </button>
  );
}
