// Changing a connector (PATCH /connectors/{id}): its sync interval, its custom instructions, and
// new credentials (after a revoked token: the connector leaves `reconnect`).
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction, useApi } from "../ui/use-polling.js";
import { credentialVariants, credentialsOf } from "./credential-fields.js";
import { CredentialInput } from "./credential-input.js";
import type { Connector } from "./connector-types.js";

export function SettingsPanel(props: { api: ApiClient; connector: Connector; onChanged: () => void }) {
  const { api, connector } = props;
  const [interval, setSyncInterval] = useState(String(connector.sync_interval_seconds));
  const [instructions, setInstructions] = useState(connector.custom_instructions);
  const [values, setValues] = useState<Record<string, string>>({});
  const [note, setNote] = useState("");
  // The form starts from the stored values and is not overwritten by polling while being edited.
  useEffect(() => {
    setSyncInterval(String(connector.sync_interval_seconds));
    setInstructions(connector.custom_instructions);
  }, [connector.connector_id]);

  const descriptor = useApi(async () => {
    const answer = await api.call(api.raw.GET("/connectors/providers", { params: { query: { id: connector.provider } } }));
    return "credential_schema" in answer ? answer : null;
  }, [api, connector.provider]);
  const variant = credentialVariants(descriptor.data?.credential_schema)[0];

  const save = useAction(async () => {
    const credentials = variant ? credentialsOf(variant, values) : {};
    const answer = await api.call(
      api.raw.PATCH("/connectors/{id}", {
        params: { path: { id: connector.connector_id } },
        body: {
          sync_interval_seconds: Number(interval),
          custom_instructions: instructions,
          ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
        },
      }),
    );
    setValues({});
    setNote(`Saved: sync every ${answer.sync_interval_seconds} s${answer.credentials_updated ? ", new credentials" : ""}.`);
    props.onChanged();
  });

  return (
    <form
      class="stack-form"
      data-testid="connector-settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <label>
        <span>
          Sync every (seconds
          {descriptor.data ? `, ${descriptor.data.min_sync_interval_seconds} to ${descriptor.data.max_sync_interval_seconds}` : ""})
        </span>
        <input type="number" data-testid="settings-interval" value={interval} onInput={(e) => setSyncInterval(e.currentTarget.value)} />
      </label>
      <label>
        Custom instructions (applied from the next sync)
        <textarea rows={3} maxLength={4000} value={instructions} onInput={(e) => setInstructions(e.currentTarget.value)} />
      </label>
      {variant ? (
        <fieldset>
          <legend>Replace credentials (leave empty to keep them)</legend>
          {variant.fields.map((field) => (
            <label key={field.name}>
              {field.name}
              <CredentialInput field={field} value={values[field.name] ?? ""} onInput={(value) => setValues({ ...values, [field.name]: value })} />
            </label>
          ))}
        </fieldset>
      ) : null}
      <div class="form-actions">
        <button type="submit" class="primary" data-testid="settings-save" disabled={save.pending}>
          Save
        </button>
        {note ? <span class="notice">{note}</span> : null}
      </div>
      <ErrorBanner error={save.error ?? descriptor.error} />
    </form>
  );
}
