import type { Executor, Store } from "./db.js";

/** Callbacks waiting for the commit of each open transaction (keyed by the executor handed to its body). */
const pending = new WeakMap<Executor, Array<() => void>>();

/**
 * Runs `callback` once what was written through `executor` is committed: at once for the root
 * handle (autocommit) or an executor this module does not know, after COMMIT for a transaction
 * of a store opened by openStore, and never when that transaction rolls back. Callbacks run
 * synchronously after the commit and must not throw.
 */
export function afterCommit(executor: Executor, callback: () => void): void {
  const waiting = pending.get(executor);
  if (waiting) waiting.push(callback);
  else callback();
}

/** The store with a transaction() that runs the afterCommit callbacks registered in it once it committed. */
export function withCommitCallbacks(store: Store): Store {
  const transaction = store.transaction.bind(store);
  return {
    ...store,
    async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
      const callbacks: Array<() => void> = [];
      const result = await transaction((tx) => {
        pending.set(tx, callbacks);
        return fn(tx);
      });
      for (const callback of callbacks) callback();
      return result;
    },
  };
}
