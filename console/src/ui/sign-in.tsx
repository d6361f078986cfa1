import { useState } from "preact/hooks";
import { createApiClient, type ApiClient } from "../../../src/client/api-client.js";
import { ErrorBanner } from "./error-banner.js";
import { serviceBaseUrl } from "./session.js";

/**
 * The key is checked with a real call (GET /databases) before the console opens, so a wrong key
 * shows the service's own 401 UNAUTHORIZED and message here rather than on every screen.
 */
export function SignIn(props: { onSignedIn: (api: ApiClient, key: string) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    const api = createApiClient({ baseUrl: serviceBaseUrl(), apiKey: key.trim() });
    try {
      await api.call(api.raw.GET("/databases"));
      props.onSignedIn(api, key.trim());
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <div class="sign-in" data-testid="sign-in">
      <form class="sign-in-card" onSubmit={(e) => void submit(e)}>
        <div class="brand">
          <span class="brand-mark">CS</span>
          <span>Context Store</span>
        </div>
        <h1>Sign in to the console</h1>
        <p class="hint">
          Paste an API key of your organization. It stays in this browser tab only (session storage) and is sent as a Bearer token to this service.
        </p>
        <label>
          API key
          <input
            type="password"
            autocomplete="off"
            data-testid="api-key-input"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            placeholder="csk_…"
            required
          />
        </label>
        <ErrorBanner error={error} />
        <button type="submit" class="primary" data-testid="sign-in-button" disabled={pending || key.trim() === ""}>
          {pending ? "Checking…" : "Sign in"}
        </button>
      </form>
    </div>
  );
}
