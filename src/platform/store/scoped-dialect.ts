import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from "kysely";
import pg from "pg";
import { currentRowScope, type RowScope } from "./row-scope.js";

/**
 * The role pooled connections act as, once set (after migrations ran): a role that row-level
 * security applies to. null while connections act as the login role.
 */
export interface SessionRole {
  name: string | null;
}

/** What a connection's session settings say: the role, and the row scope as `app.org_id` / `app.scope`. */
interface SessionState {
  role: string | null;
  scope: string;
}

/** One checkout of a connection: the scope of the work that checked it out, and whether a transaction is open. */
interface Lease {
  readonly inner: DatabaseConnection;
  readonly session: SessionState;
  readonly scope: string;
  readonly orgId: string;
  readonly system: boolean;
  inTransaction: boolean;
}

const NO_SCOPE = "";
const scopeKey = (scope: RowScope | undefined): string => (scope === undefined ? NO_SCOPE : scope.kind === "system" ? "system" : `org:${scope.orgId}`);

const SET_SESSION = "select set_config('role', $1, false), set_config('app.org_id', $2, false), set_config('app.scope', $3, false)";

function beginStatement(settings: TransactionSettings): string {
  if (!settings.isolationLevel && !settings.accessMode) return "begin";
  return ["start transaction", settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : "", settings.accessMode ?? ""]
    .filter(Boolean)
    .join(" ");
}

/**
 * Wraps the PostgreSQL dialect so that every unit of work reaches the server in its row scope
 * (see row-scope.ts), at no extra round trip in the common case:
 * - a transaction carries its scope in its own first statement: `set_config(..., true)` sent
 *   with BEGIN in one message, and only when the connection's session does not already have it;
 * - a statement outside a transaction sets the session's scope first, only when the connection
 *   last had another one (a pool serving one organization, or system work, never pays it);
 * - a connection first used after the role is set assumes it (SET ROLE, once per connection).
 */
export function scopedPostgresDialect(inner: Dialect, role: SessionRole): Dialect {
  return {
    createDriver: () => scopedDriver(inner.createDriver(), role),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

function scopedDriver(driver: Driver, role: SessionRole): Driver {
  // Kysely keeps one connection object per pooled client, so its session state lives as long as the client.
  const sessions = new WeakMap<DatabaseConnection, SessionState>();
  const leases = new WeakMap<DatabaseConnection, Lease>();
  const lease = (conn: DatabaseConnection): Lease => {
    const found = leases.get(conn);
    if (!found) throw new Error("a connection that this store did not hand out");
    return found;
  };

  const applySession = async (l: Lease): Promise<void> => {
    await l.inner.executeQuery(CompiledQuery.raw(SET_SESSION, [role.name ?? "none", l.orgId, l.system ? "system" : ""]));
    l.session.role = role.name;
    l.session.scope = l.scope;
  };

  const wrap = (l: Lease): DatabaseConnection => {
    const proxy = new Proxy(l.inner, {
      get(target, prop) {
        if (prop === "executeQuery") {
          const execute: DatabaseConnection["executeQuery"] = async (query) => {
            if (!l.inTransaction && l.session.scope !== l.scope) await applySession(l);
            return target.executeQuery(query);
          };
          return execute;
        }
        if (prop === "streamQuery") {
          const stream: DatabaseConnection["streamQuery"] = async function* (query, chunkSize) {
            if (!l.inTransaction && l.session.scope !== l.scope) await applySession(l);
            yield* target.streamQuery(query, chunkSize);
          };
          return stream;
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    leases.set(proxy, l);
    return proxy;
  };

  const scoped: Driver = {
    init: () => driver.init(),
    acquireConnection: async () => {
      // Read before awaiting: the scope of the work asking for the connection.
      const scope = currentRowScope();
      const inner = await driver.acquireConnection();
      let session = sessions.get(inner);
      if (!session) {
        // A new session: no role assumed, and app.* unset, which row security reads as no scope.
        session = { role: null, scope: NO_SCOPE };
        sessions.set(inner, session);
      }
      const l: Lease = {
        inner,
        session,
        scope: scopeKey(scope),
        orgId: scope?.kind === "org" ? scope.orgId : "",
        system: scope?.kind === "system",
        inTransaction: false,
      };
      if (session.role !== role.name) {
        try {
          await applySession(l);
        } catch (err) {
          // Not handed out: give the connection back instead of leaking it from the pool.
          await driver.releaseConnection(inner);
          throw err;
        }
      }
      return wrap(l);
    },
    beginTransaction: async (conn, settings) => {
      const l = lease(conn);
      if (l.session.scope === l.scope) await driver.beginTransaction(l.inner, settings);
      else {
        // One message, two statements (the simple protocol): the scope costs no round trip.
        const local = `select set_config('app.org_id', ${pg.escapeLiteral(l.orgId)}, true), set_config('app.scope', ${l.system ? "'system'" : "''"}, true)`;
        await l.inner.executeQuery(CompiledQuery.raw(`${beginStatement(settings)}; ${local}`));
      }
      l.inTransaction = true;
    },
    commitTransaction: async (conn) => {
      const l = lease(conn);
      try {
        await driver.commitTransaction(l.inner);
      } finally {
        l.inTransaction = false;
      }
    },
    rollbackTransaction: async (conn) => {
      const l = lease(conn);
      try {
        await driver.rollbackTransaction(l.inner);
      } finally {
        l.inTransaction = false;
      }
    },
    releaseConnection: (conn) => driver.releaseConnection(lease(conn).inner),
    destroy: () => driver.destroy(),
  };
  if (driver.savepoint) {
    const savepoint = driver.savepoint.bind(driver);
    scoped.savepoint = (conn, name, compile) => savepoint(lease(conn).inner, name, compile);
  }
  if (driver.rollbackToSavepoint) {
    const rollbackTo = driver.rollbackToSavepoint.bind(driver);
    scoped.rollbackToSavepoint = (conn, name, compile) => rollbackTo(lease(conn).inner, name, compile);
  }
  if (driver.releaseSavepoint) {
    const release = driver.releaseSavepoint.bind(driver);
    scoped.releaseSavepoint = (conn, name, compile) => release(lease(conn).inner, name, compile);
  }
  return scoped;
}
