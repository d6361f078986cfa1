// One credential field's input: a password input for secrets (tokens, keys), plain text otherwise.
import type { CredentialField } from "./credential-fields.js";

export function CredentialInput(props: { field: CredentialField; value: string; onInput: (value: string) => void; testId?: string; required?: boolean }) {
  const common = {
    "data-testid": props.testId,
    autocomplete: "off",
    required: props.required,
    placeholder: props.field.description,
    value: props.value,
    onInput: (e: { currentTarget: HTMLInputElement }) => props.onInput(e.currentTarget.value),
  };
  return props.field.secret ? <input type="password" {...common} /> : <input type="text" {...common} />;
}
