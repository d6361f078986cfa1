import { useState } from "preact/hooks";

/**
 * A destructive action in two clicks: the first arms it (the button then asks to confirm),
 * the second runs it; Cancel disarms. No modal, so it reads the same in a test and a screen reader.
 */
export function ConfirmButton(props: { label: string; confirmLabel?: string; onConfirm: () => void; disabled?: boolean; testId: string }) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button type="button" class="danger" data-testid={props.testId} disabled={props.disabled} onClick={() => setArmed(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span class="confirm">
      <button
        type="button"
        class="danger solid"
        data-testid={`${props.testId}-confirm`}
        onClick={() => {
          setArmed(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel ?? `Yes, ${props.label.toLowerCase()}`}
      </button>
      <button type="button" data-testid={`${props.testId}-cancel`} onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
