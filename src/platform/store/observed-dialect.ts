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
  const wrap = (conn: DatabaseConnection): DatabaseConnection => {
    const proxy = new Proxy(conn, {
      get(target, prop) {
        if (prop === "executeQuery") {
          const execute: DatabaseConnection["executeQuery"] = (query, options) => observe(() => target.executeQuery(query, options));
          return execute;
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    originals.set(proxy, conn);
    return proxy;
  };
  const observed: Driver = {
    init: (options) => driver.init(options),
    acquireConnection: async (options) => wrap(await observe(() => driver.acquireConnection(options))),
    beginTransaction: (conn, settings) => observe(() => driver.beginTransaction(original(conn), settings)),
    commitTransaction: (conn) => observe(() => driver.commitTransaction(original(conn))),
    rollbackTransaction: async (conn) => {
      await driver.rollbackTransaction(original(conn)).catch(() => undefined);
    },
    releaseConnection: (conn, options) => driver.releaseConnection(original(conn), options),
    destroy: (options) => driver.destroy(options),
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
