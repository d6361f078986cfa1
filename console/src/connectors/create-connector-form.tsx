// Creating a connector: the provider from GET /connectors/providers, then a credentials form built
// from that provider's credential_schema (GET /connectors/providers?id=), its setup guide beside it.
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { useAction, useApi } from "../ui/use-polling.js";
import { credentialVariants, credentialsOf } from "./credential-fields.js";
import { CredentialInput } from "./credential-input.js";

export interface CreateConnectorFormProps {
  readonly api: ApiClient;
  readonly database: string | null;
  readonly collection: string | null;
  readonly onCreated: (connectorId: string) => void;
}

export function CreateConnectorForm(props: CreateConnectorFormProps) {
  const { api } = props;
  const [provider, setProvider] = useState("");
  const [variantIndex, setVariantIndex] = useState(0);
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState("");
  const [database, setDatabase] = useState(props.database ?? "");
  const [collection, setCollection] = useState(props.collection ?? "");
  const [scope, setScope] = useState("");
  const [syncInterval, setSyncInterval] = useState("");

  useEffect(() => setDatabase(props.database ?? ""), [props.database]);
  useEffect(() => setCollection(props.collection ?? ""), [props.collection]);

  const providers = useApi(async () => {
    const answer = await api.call(api.raw.GET("/connectors/providers"));
    return "providers" in answer ? answer.providers.filter((p) => p.supported).sort((a, b) => a.rank - b.rank) : [];
  }, [api]);
  const descriptor = useApi(async () => {
    if (provider === "") return null;
    const answer = await api.call(api.raw.GET("/connectors/providers", { params: { query: { id: provider } } }));
    return "credential_schema" in answer ? answer : null;
  }, [api, provider]);

  const variants = credentialVariants(descriptor.data?.credential_schema);
  const variant = variants[variantIndex] ?? variants[0];

  const create = useAction(async () => {
    if (!variant || !descriptor.data) throw new Error("choose a provider first");
    const seconds = syncInterval.trim() === "" ? null : Number(syncInterval);
    const created = await api.call(
      api.raw.POST("/connectors", {
        body: {
          provider,
          credentials: credentialsOf(variant, values),
          auth_type: descriptor.data.auth_type,
          database,
          ...(name.trim() !== "" ? { name: name.trim() } : {}),
          ...(collection.trim() !== "" ? { collection: collection.trim() } : {}),
          ...(scope.trim() !== "" ? { provider_account_scope: scope.trim() } : {}),
          ...(seconds !== null && Number.isFinite(seconds) ? { sync_interval_seconds: seconds } : {}),
        },
      }),
    );
    setValues({});
    props.onCreated(created.connector_id);
  });

  return (
    <form
      class="stack-form"
      data-testid="connector-create"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <ErrorBanner error={providers.error} />
      <label>
        Provider
        <select
          data-testid="connector-provider"
          value={provider}
          onChange={(e) => {
            setProvider(e.currentTarget.value);
            setVariantIndex(0);
            setValues({});
          }}
        >
          <option value="">(choose)</option>
          {(providers.data ?? []).map((p) => (
            <option key={p.provider} value={p.provider}>
              {p.provider} ({p.category}
              {p.is_beta ? ", beta" : p.is_alpha ? ", alpha" : ""})
            </option>
          ))}
        </select>
      </label>
      <ErrorBanner error={descriptor.error} />
      {descriptor.data ? (
        <>
          <p class="hint" data-testid="connector-setup-guide">
            {descriptor.data.setup_guide}
          </p>
          {variants.length > 1 ? (
            <label>
              Credentials as
              <select data-testid="connector-credential-variant" value={String(variantIndex)} onChange={(e) => setVariantIndex(Number(e.currentTarget.value))}>
                {variants.map((v, i) => (
                  <option key={v.label} value={String(i)}>
                    {v.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {variant?.fields.map((field) => (
            <label key={field.name}>
              {field.name}
              {field.required ? " *" : ""}
              <CredentialInput
                field={field}
                testId={`credential-${field.name}`}
                required={field.required}
                value={values[field.name] ?? ""}
                onInput={(value) => setValues({ ...values, [field.name]: value })}
              />
            </label>
          ))}
          <div class="form-row">
            <label>
              Name
              <input data-testid="connector-name" value={name} placeholder={`${provider} connector`} onInput={(e) => setName(e.currentTarget.value)} />
            </label>
            <label>
              Database *
              <input data-testid="connector-database" required value={database} onInput={(e) => setDatabase(e.currentTarget.value)} />
            </label>
            <label>
              Collection
              <input data-testid="connector-collection" value={collection} placeholder="default" onInput={(e) => setCollection(e.currentTarget.value)} />
            </label>
          </div>
          <div class="form-row">
            <label>
              Account scope
              <input value={scope} placeholder="from the provider when empty" onInput={(e) => setScope(e.currentTarget.value)} />
            </label>
            <label>
              <span>
                Sync every (seconds, {descriptor.data.min_sync_interval_seconds} to {descriptor.data.max_sync_interval_seconds})
              </span>
              <input
                type="number"
                placeholder={String(descriptor.data.default_sync_interval_seconds)}
                value={syncInterval}
                onInput={(e) => setSyncInterval(e.currentTarget.value)}
              />
            </label>
          </div>
          <div class="form-actions">
            <button type="submit" class="primary" data-testid="connector-create-submit" disabled={create.pending}>
              {create.pending ? "Checking credentials…" : "Create connector"}
            </button>
          </div>
        </>
      ) : null}
      <ErrorBanner error={create.error} testId="connector-create-error" />
    </form>
  );
}
