import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export interface Polled<T> {
  /** The latest answer; kept while a refresh is under way, so the screen does not flicker. */
  readonly data: T | null;
  /** The latest failure, cleared by the next success. */
  readonly error: unknown;
  readonly loading: boolean;
  /** Asks again now (after a create or delete), without waiting for the next tick. */
  readonly refresh: () => void;
}

/**
 * Calls `fn` now and then every `intervalMs` (0: once) while the screen is shown and `deps` are
 * unchanged, so what the service reports appears without a reload. A slow answer never
 * overwrites a newer one: each call carries a sequence number and stale ones are dropped.
 */
export function usePolling<T>(fn: () => Promise<T>, intervalMs: number, deps: readonly unknown[]): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const sequence = useRef(0);
  const latest = useRef(fn);
  latest.current = fn;

  const run = useCallback(() => {
    const mine = ++sequence.current;
    setLoading(true);
    latest.current().then(
      (value) => {
        if (mine !== sequence.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== sequence.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => {
    setData(null);
    run();
    const timer = intervalMs > 0 ? window.setInterval(run, intervalMs) : null;
    return () => {
      if (timer !== null) window.clearInterval(timer);
      // an answer arriving after the screen changed question is dropped
      sequence.current++;
    };
    // deps are the caller's: a change means a different question
  }, [intervalMs, run, ...deps]);

  return { data, error, loading, refresh: run };
}

/** One call per change of `deps`: usePolling without the interval. */
export function useApi<T>(fn: () => Promise<T>, deps: readonly unknown[]): Polled<T> {
  return usePolling(fn, 0, deps);
}

/** Runs an action (create, delete, save), keeping its pending state, last answer and error for the screen. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [data, setData] = useState<R | null>(null);
  const run = async (...args: A): Promise<R | null> => {
    setPending(true);
    setError(null);
    try {
      const result = await action(...args);
      setData(result);
      return result;
    } catch (failure) {
      setError(failure);
      return null;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, data, clearError: () => setError(null) };
}
