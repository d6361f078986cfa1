import type { DatabaseConnection, Dialect, Driver } from "kysely";

/**
 * Wraps a Kysely dialect so that the store layer sees every failing statement (to track
 * whether the store can be written) and so that a failing ROLLBACK never replaces the error
 * that caused it: the transaction is over either way (the driver already rolled it back, or
 * the connection is gone), and the original error is the one that propagates and gets logged.
 */
export function observedDialect(inner: Dialect, onError: (err: unknown) => void): Dialect {
  return {
    createDriver: () => observedDriver(inner.createDriver(), onError),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

function observedDriver(driver: Driver, onError: (err: unknown) => void): Driver {
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const original = (c: DatabaseConnection): DatabaseConnection => originals.get(c) ?? c;
  const observe = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      onError(err);
      throw err;
    }
  };
  // One proxy per connection, made once: SQLite's driver hands out its one connection for every
  // statement, and a new proxy (and its bound functions) each time was garbage per statement.
  const proxies = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const wrap = (conn: DatabaseConnection): DatabaseConnection => {
    const known = proxies.get(conn);
    if (known !== undefined) return known;
    const execute: DatabaseConnection["executeQuery"] = (query) => observe(() => conn.executeQuery(query));
    const bound = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(conn, {
      get(target, prop) {
        if (prop === "executeQuery") return execute;
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        const cached = bound.get(prop);
        if (cached !== undefined) return cached;
        const fn = (value as (...args: unknown[]) => unknown).bind(target);
        bound.set(prop, fn);
        return fn;
      },
    });
    originals.set(proxy, conn);
    proxies.set(conn, proxy);
    return proxy;
  };
  const observed: Driver = {
    init: () => driver.init(),
    acquireConnection: async () => wrap(await observe(() => driver.acquireConnection())),
    beginTransaction: (conn, settings) => observe(() => driver.beginTransaction(original(conn), settings)),
    commitTransaction: (conn) => observe(() => driver.commitTransaction(original(conn))),
    rollbackTransaction: async (conn) => {
      await driver.rollbackTransaction(original(conn)).catch(() => undefined);
    },
    releaseConnection: (conn) => driver.releaseConnection(original(conn)),
    destroy: () => driver.destroy(),
  };
  if (driver.savepoint) {
    const savepoint = driver.savepoint.bind(driver);
    observed.savepoint = (conn, name, compile) => observe(() => savepoint(original(conn), name, compile));
  }
  if (driver.rollbackToSavepoint) {
    const rollbackTo = driver.rollbackToSavepoint.bind(driver);
    observed.rollbackToSavepoint = (conn, name, compile) => rollbackTo(original(conn), name, compile);
  }
  if (driver.releaseSavepoint) {
    const release = driver.releaseSavepoint.bind(driver);
    observed.releaseSavepoint = (conn, name, compile) => observe(() => release(original(conn), name, compile));
  }
  return observed;
}
