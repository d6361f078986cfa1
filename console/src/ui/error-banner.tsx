import { shownError } from "./errors.js";

/** Shows a failed call's code and message (the service's own), or nothing when there is no error. */
export function ErrorBanner(props: { error: unknown; testId?: string }) {
  if (props.error === null || props.error === undefined) return null;
  const { code, message } = shownError(props.error);
  return (
    <div class="error-banner" role="alert" data-testid={props.testId ?? "error-banner"}>
      <span class="error-code" data-testid="error-code">
        {code}
      </span>
      <span class="error-message" data-testid="error-message">
        {message}
      </span>
    </div>
  );
}
