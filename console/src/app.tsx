import { useMemo, useState } from "preact/hooks";
import { createApiClient, type ApiClient } from "../../src/client/api-client.js";
import { DEFAULT_ROUTE, resolveRoute, routes } from "./routes.js";
import { navigate, useHashPath } from "./ui/hash-route.js";
import { GraphDatabaseChosen } from "./ui/page.js";
import { ScopePicker } from "./ui/scope-picker.js";
import { session, serviceBaseUrl } from "./ui/session.js";
import { SignIn } from "./ui/sign-in.js";
import { useDatabases } from "./ui/use-databases.js";

const SECTIONS = ["Data", "Explore", "Integrations", "Settings"] as const;

/** Sign-in, then the shell. */
export function App() {
  const [api, setApi] = useState<ApiClient | null>(() => {
    const key = session.apiKey();
    return key === null ? null : createApiClient({ baseUrl: serviceBaseUrl(), apiKey: key });
  });
  const path = useHashPath();

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
  return (
    <Shell
      api={api}
      path={path}
      onSignOut={() => {
        session.clear();
        setApi(null);
      }}
    />
  );
}

/** The header (scope pickers, sign out), the left navigation and the routed screen. */
function Shell(props: { api: ApiClient; path: string; onSignOut: () => void }) {
  const { api, path } = props;
  const [database, setDatabase] = useState<string | null>(session.database());
  const [collection, setCollection] = useState<string | null>(session.collection());
  const databases = useDatabases(api);
  const route = useMemo(() => resolveRoute(path), [path]);
  const kind = databases.data?.find((d) => d.database === database)?.kind ?? null;

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

  const Screen = route?.entry.screen;
  // Knowledge, memories and their graph live in context databases; a graph database holds Cypher graphs only.
  const wrongKind = route?.entry.needs === "context" && database !== null && kind === "graph";
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
          <ScopePicker
            api={api}
            databases={databases.data}
            database={database}
            collection={collection}
            onDatabase={chooseDatabase}
            onCollection={chooseCollection}
          />
          <button type="button" class="link" data-testid="sign-out" onClick={props.onSignOut}>
            Sign out
          </button>
        </header>
        <main class="content">
          {wrongKind && database !== null ? (
            <GraphDatabaseChosen title={route?.entry.nav ?? "Context"} database={database} />
          ) : Screen && route ? (
            <Screen
              key={path}
              api={api}
              database={database}
              collection={collection}
              params={route.params}
              navigate={navigate}
              chooseDatabase={chooseDatabase}
              refreshDatabases={databases.refresh}
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
