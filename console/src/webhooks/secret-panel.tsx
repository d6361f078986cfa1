// The signing secret: deliveries carry X-Service-Signature (HMAC-SHA256 of the raw body) when one is
// set. The service never shows a stored secret again, so "show" means the one just generated.
import { useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ConfirmButton } from "../ui/confirm-button.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction } from "../ui/use-polling.js";

export interface SecretPanelProps {
  readonly api: ApiClient;
  readonly registered: boolean;
  readonly configured: boolean;
  /** The secret generated in this tab, if any: shown until the page is left. */
  readonly fresh: string | null;
  readonly onSecret: (secret: string | null) => void;
  readonly onChanged: () => void;
}

export function SecretPanel(props: SecretPanelProps) {
  const { api } = props;
  const [own, setOwn] = useState("");
  const [note, setNote] = useState("");
  const rotate = useAction(async () => {
    const answer = await api.call(api.raw.POST("/webhooks/indexing/signing-secret", { body: {} }));
    props.onSecret(answer.signing_secret ?? null);
    setNote(answer.message);
    props.onChanged();
  });
  const set = useAction(async () => {
    const answer = await api.call(api.raw.POST("/webhooks/indexing/signing-secret", { body: { signing_secret: own } }));
    setOwn("");
    props.onSecret(null);
    setNote(answer.message);
    props.onChanged();
  });
  const disable = useAction(async () => {
    const answer = await api.call(api.raw.DELETE("/webhooks/indexing/signing-secret"));
    props.onSecret(null);
    setNote(answer.message);
    props.onChanged();
  });

  return (
    <div data-testid="webhook-secret">
      <p data-testid="webhook-signing-state">
        {props.configured ? "Deliveries are signed (X-Service-Signature: sha256=<hex HMAC of the raw body>)." : "Deliveries are not signed."}
      </p>
      {props.fresh ? (
        <div class="secret-box" data-testid="webhook-secret-value">
          <p>New signing secret; copy it now, the service does not show it again:</p>
          <code>{props.fresh}</code>
        </div>
      ) : null}
      <div class="form-actions">
        <button type="button" data-testid="webhook-secret-rotate" disabled={!props.registered || rotate.pending} onClick={() => void rotate.run()}>
          {props.configured ? "Rotate secret" : "Generate secret"}
        </button>
        {props.configured ? <ConfirmButton label="Disable signing" testId="webhook-secret-disable" onConfirm={() => void disable.run()} /> : null}
      </div>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void set.run();
        }}
      >
        <input
          type="password"
          autocomplete="off"
          placeholder="or set your own (16+ characters)"
          minLength={16}
          value={own}
          onInput={(e) => setOwn(e.currentTarget.value)}
        />
        <button type="submit" disabled={!props.registered || own.length === 0 || set.pending}>
          Set secret
        </button>
      </form>
      {note ? <p class="notice">{note}</p> : null}
      <ErrorBanner error={rotate.error ?? set.error ?? disable.error} />
    </div>
  );
}
