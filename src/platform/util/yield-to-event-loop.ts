/**
 * Resolves on the event loop's next turn (after pending I/O and timers). A loop of awaited
 * better-sqlite3 calls resolves in microtasks only and never lets a request in: loading a
 * 110,000-chunk search index that way held the request thread for 25-30 s.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
