import { useMemo, useState } from "preact/hooks";
import { createApiClient, type ApiClient } from "../../src/client/api-client.js";
import { DEFAULT_ROUTE, resolveRoute, routes } from "./routes.js";
import { navigate, useHashPath } from "./ui/hash-route.js";
import { ScopePicker } from "./ui/scope-picker.js";
import { session, serviceBaseUrl } from "./ui/session.js";
import { SignIn } from "./ui/sign-in.js";

const SECTIONS = ["Data", "Explore", "Integrations"] as const;

/** The shell: sign-in, then the header (scope pickers, sign out), the left navigation and the routed screen. */
export function App() {
  const [api, setApi] = useState<ApiClient | null>(() => {
    const key = session.apiKey();
    return key === null ? null : createApiClient({ baseUrl: serviceBaseUrl(), apiKey: key });
  });
  const [database, setDatabase] = useState<string | null>(session.database());
  const [collection, setCollection] = useState<string | null>(session.collection());
  const path = useHashPath();
  const route = useMemo(() => resolveRoute(path), [path]);

  if (api === null) {
    return (
      <SignIn
        onSignedIn={(client, key) => {
          session.setApiKey(key);
          setApi(client);
          if (resolveRoute(path) === null) navigate(DEFAULT_ROUTE);
        }}
      />
    );
  }

  const chooseDatabase = (name: string | null) => {
    session.setDatabase(name);
    setDatabase(name);
    // Collections belong to a database: a new database starts in its default collection.
    session.setCollection(null);
    setCollection(null);
  };
  const chooseCollection = (name: string | null) => {
    session.setCollection(name);
    setCollection(name);
  };
  const signOut = () => {
    session.clear();
    setApi(null);
    setDatabase(null);
    setCollection(null);
  };

  const Screen = route?.entry.screen;
  return (
    <div class="shell">
      <aside class="nav" data-testid="nav">
        <div class="brand">
          <span class="brand-mark">CS</span>
          <span>Context Store</span>
        </div>
        {SECTIONS.map((section) => {
          const entries = routes.filter((r) => r.nav !== undefined && r.section === section);
          if (entries.length === 0) return null;
          return (
            <nav key={section}>
              <div class="nav-section">{section}</div>
              {entries.map((r) => {
                const active = route !== null && (route.entry === r || path.startsWith(`${r.pattern}/`));
                return (
                  <a key={r.pattern} href={`#${r.pattern}`} class={active ? "active" : undefined} data-testid={`nav-${r.pattern.slice(1)}`}>
                    {r.nav}
                  </a>
                );
              })}
            </nav>
          );
        })}
      </aside>
      <div class="main">
        <header class="topbar">
          <ScopePicker api={api} database={database} collection={collection} onDatabase={chooseDatabase} onCollection={chooseCollection} />
          <button type="button" class="link" data-testid="sign-out" onClick={signOut}>
            Sign out
          </button>
        </header>
        <main class="content">
          {Screen && route ? (
            <Screen
              key={path}
              api={api}
              database={database}
              collection={collection}
              params={route.params}
              navigate={navigate}
              chooseDatabase={chooseDatabase}
            />
          ) : (
            <div class="page" data-testid="not-found">
              <h1>Nothing here</h1>
              <p class="hint">
                No screen at <code>#{path}</code>. Go to <a href={`#${DEFAULT_ROUTE}`}>Databases</a>.
              </p>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
