// What the console remembers lives in sessionStorage: this tab only, gone when it closes. The API key
// is never put in localStorage or a cookie, so another tab or a later visitor does not inherit it.
const PREFIX = "context-store.";
const KEY = `${PREFIX}api-key`;
const DATABASE = `${PREFIX}database`;
const COLLECTION = `${PREFIX}collection`;

function read(name: string): string | null {
  const value = window.sessionStorage.getItem(name);
  return value === null || value === "" ? null : value;
}

function write(name: string, value: string | null): void {
  if (value === null) window.sessionStorage.removeItem(name);
  else window.sessionStorage.setItem(name, value);
}

export const session = {
  apiKey: () => read(KEY),
  setApiKey: (value: string | null) => write(KEY, value),
  database: () => read(DATABASE),
  setDatabase: (value: string | null) => write(DATABASE, value),
  collection: () => read(COLLECTION),
  setCollection: (value: string | null) => write(COLLECTION, value),
  /** Sign-out: the key, the choices and everything else the console kept (query history, settings). */
  clear: () => {
    const names = Array.from({ length: window.sessionStorage.length }, (_, i) => window.sessionStorage.key(i));
    for (const name of names) if (name !== null && name.startsWith(PREFIX)) window.sessionStorage.removeItem(name);
  },
};

/** The service's root: the console is served at <root>/console/, so one level up from this page. */
export function serviceBaseUrl(): string {
  return new URL("../", window.location.href).href.replace(/\/+$/, "");
}
