import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiClient } from "../../../src/client/api-client.js";
import { shownError } from "./errors.js";

/** One thing sent for indexing (a file or a record), from upload to its final indexing status. */
export interface Tracked {
  readonly key: string;
  readonly label: string;
  readonly corpus: "knowledge" | "memory";
  readonly sizeBytes?: number;
  /** Upload progress 0..1 for files; records arrive whole. */
  readonly progress: number;
  /** The item id once the service accepted it. */
  readonly id: string | null;
  /** uploading, then the service's: queued, processing, graph_creation, completed, errored... */
  readonly status: string;
  readonly errorCode: string | null;
  readonly message: string | null;
}

const FINAL = new Set(["completed", "success", "errored", "failed", "duplicate"]);
export const isFinal = (status: string): boolean => FINAL.has(status);

/** Asks GET /context/status for the unfinished items this often until each is completed or errored. */
const POLL_MS = 1000;

/**
 * The list of tracked items and their live indexing status: items with an id and a status that is
 * not final are asked about every POLL_MS (one request per corpus), and updated in place.
 */
export function useIndexingTracker(api: ApiClient, database: string | null, collection: string | null) {
  const [items, setItems] = useState<Tracked[]>([]);
  const [pollError, setPollError] = useState<unknown>(null);
  const current = useRef(items);
  current.current = items;

  const update = (key: string, change: Partial<Tracked>) => setItems((all) => all.map((t) => (t.key === key ? { ...t, ...change } : t)));
  const add = (added: Tracked[]) => setItems((all) => [...added, ...all]);

  useEffect(() => {
    if (database === null) return undefined;
    let stopped = false;
    const tick = async () => {
      for (const corpus of ["knowledge", "memory"] as const) {
        const waiting = current.current.filter((t) => t.corpus === corpus && t.id !== null && !isFinal(t.status) && t.status !== "uploading");
        if (waiting.length === 0) continue;
        const ids = waiting.map((t) => t.id ?? "");
        try {
          const query = { database, ids, type: corpus, ...(collection !== null ? { collection } : {}) };
          const { statuses } = await api.call(api.raw.GET("/context/status", { params: { query } }));
          if (stopped) return;
          setPollError(null);
          setItems((all) =>
            all.map((t) => {
              const s = t.corpus === corpus ? statuses.find((x) => x.id === t.id) : undefined;
              if (!s || isFinal(t.status)) return t;
              const failed = s.indexing_status === "errored" || s.indexing_status === "failed";
              return { ...t, status: s.indexing_status, errorCode: failed ? s.error_code : null, message: failed ? s.message : null };
            }),
          );
        } catch (error) {
          if (!stopped) setPollError(error);
        }
      }
    };
    const timer = window.setInterval(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [api, database, collection]);

  /** Marks a refused upload or record with the service's (or the client's) code and message. */
  const fail = (key: string, error: unknown) => {
    const { code, message } = shownError(error);
    update(key, { status: "errored", errorCode: code, message });
  };

  return { items, add, update, fail, pollError, clear: () => setItems((all) => all.filter((t) => !isFinal(t.status))) };
}
