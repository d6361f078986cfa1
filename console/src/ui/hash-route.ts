import { useEffect, useState } from "preact/hooks";

/** The current hash route without its `#` (`/items/abc`), following hashchange events. */
export function useHashPath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return path;
}

function currentPath(): string {
  const raw = window.location.hash.replace(/^#/, "");
  return raw === "" ? "/" : raw;
}

export function navigate(hash: string): void {
  window.location.hash = hash.startsWith("#") ? hash : `#${hash}`;
}

/**
 * Matches a path against a pattern such as `/items/:id`. A parameter is one path segment,
 * percent-decoded, so an id holding `/` travels encoded (see `hashWithId`).
 */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("?")[0]?.split("/") ?? [];
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith(":")) {
      if (g === "") return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        // a malformed escape: the segment is taken as written
        params[w.slice(1)] = g;
      }
    } else if (w !== g) return null;
  }
  // `#/items/<id>?type=memory`: query parameters join the path's (which win on a clash).
  const query = new URLSearchParams(path.split("?")[1] ?? "");
  for (const [k, v] of query) params[k] ??= v;
  return params;
}

/** The hash of a route with one id parameter, the id encoded as one segment. */
export function hashWithId(prefix: string, id: string): string {
  return `#${prefix}/${encodeURIComponent(id)}`;
}
