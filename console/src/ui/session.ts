// What the console remembers lives in sessionStorage: this tab only, gone when it closes. The API key
// is never put in localStorage or a cookie, so another tab or a later visitor does not inherit it.
const KEY = "context-store.api-key";
const DATABASE = "context-store.database";
const COLLECTION = "context-store.collection";

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
  clear: () => {
    for (const name of [KEY, DATABASE, COLLECTION]) window.sessionStorage.removeItem(name);
  },
};

/** The service's root: the console is served at <root>/console/, so one level up from this page. */
export function serviceBaseUrl(): string {
  return new URL("../", window.location.href).href.replace(/\/+$/, "");
}
