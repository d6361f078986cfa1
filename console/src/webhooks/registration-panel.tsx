// The indexing webhook's registration: where terminal indexing outcomes are sent. Registering
// again with another URL updates it; the signing secret is kept unless a new one is asked for.
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction } from "../ui/use-polling.js";
import type { Registration } from "./webhook-types.js";

export interface RegistrationPanelProps {
  readonly api: ApiClient;
  readonly registration: Registration | null;
  readonly onChanged: () => void;
  /** A secret the service returned once (generated at registration). */
  readonly onSecret: (secret: string) => void;
}

export function RegistrationPanel(props: RegistrationPanelProps) {
  const { api, registration } = props;
  const [url, setUrl] = useState("");
  const [generate, setGenerate] = useState(false);
  const [note, setNote] = useState("");
  useEffect(() => {
    if (registration?.url) setUrl(registration.url);
  }, [registration?.url]);

  const save = useAction(async () => {
    const answer = await api.call(api.raw.POST("/webhooks/indexing", { body: { url: url.trim(), ...(generate ? { generate_signing_secret: true } : {}) } }));
    if (answer.signing_secret) props.onSecret(answer.signing_secret);
    setGenerate(false);
    setNote(answer.message);
    props.onChanged();
  });
  const remove = useAction(async () => {
    const answer = await api.call(api.raw.DELETE("/webhooks/indexing"));
    setNote(answer.message);
    setUrl("");
    props.onChanged();
  });
  const test = useAction(async () => {
    const answer = await api.call(api.raw.POST("/webhooks/indexing/test"));
    return answer;
  });
  const [testResult, setTestResult] = useState<{ delivered: boolean; status_code: number | null; message: string } | null>(null);

  return (
    <div data-testid="webhook-registration">
      <p data-testid="webhook-state">
        {registration === null ? (
          "Loading…"
        ) : registration.registered ? (
          <>
            Sending <code>{registration.event_types.join(", ")}</code> to <code data-testid="webhook-url">{registration.url}</code>
            {registration.signing_secret_configured ? ", signed" : ", unsigned"}.
          </>
        ) : (
          "No webhook registered: indexing outcomes are only visible by polling."
        )}
      </p>
      <form
        class="stack-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run();
        }}
      >
        <label>
          Endpoint URL (public HTTPS)
          <input
            data-testid="webhook-url-input"
            type="url"
            required
            value={url}
            placeholder="https://example.com/hooks/indexing"
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <label class="inline">
          <input type="checkbox" data-testid="webhook-generate-secret" checked={generate} onChange={(e) => setGenerate(e.currentTarget.checked)} />
          Generate a new signing secret (shown once)
        </label>
        <div class="form-actions">
          <button type="submit" class="primary" data-testid="webhook-register" disabled={save.pending}>
            {registration?.registered ? "Update" : "Register"}
          </button>
          <button
            type="button"
            data-testid="webhook-test"
            disabled={!registration?.registered || test.pending}
            onClick={() => {
              setTestResult(null);
              void test.run().then((answer) => setTestResult(answer));
            }}
          >
            Send test event
          </button>
          {registration?.registered ? <ConfirmButton label="Unregister" testId="webhook-delete" onConfirm={() => void remove.run()} /> : null}
        </div>
      </form>
      {note ? (
        <p class="notice" data-testid="webhook-note">
          {note}
        </p>
      ) : null}
      {testResult ? (
        <p class={testResult.delivered ? "notice" : "notice warn"} data-testid="webhook-test-result">
          {testResult.delivered ? "Delivered" : "Not delivered"}
          {testResult.status_code !== null ? ` (HTTP ${testResult.status_code})` : ""}: {testResult.message}
        </p>
      ) : null}
      <ErrorBanner error={save.error ?? remove.error ?? test.error} testId="webhook-error" />
    </div>
  );
}
