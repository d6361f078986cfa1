import { sql, type Kysely } from "kysely";
import { PG_MIGRATION_LOCK } from "./migrate.js";
import { inSystemScope } from "./row-scope.js";
import type { Schema } from "./schema.js";
import type { SessionRole } from "./scoped-dialect.js";

/**
 * The role pooled connections assume when the login role would bypass row-level security.
 * Roles are cluster-wide: every database of the cluster that this service uses shares it, each
 * granting it what the service needs on its own tables.
 */
export const ROW_SECURITY_ROLE = "context_store_tenant";

/** How the second wall stands on this store. */
export type RowSecurity =
  /** SQLite: one process, no row security; scopes are carried but nothing checks them. */
  | { readonly mode: "none" }
  /** The login role is held to the policies itself (it owns the tables; FORCE applies to it). */
  | { readonly mode: "login-role"; readonly loginRole: string }
  /** The login role bypasses row security; connections assume `role`, which does not. */
  | { readonly mode: "assumed-role"; readonly loginRole: string; readonly role: string }
  /** The login role bypasses row security and no role without it can be assumed: the wall is off. */
  | { readonly mode: "off"; readonly loginRole: string; readonly reason: string };

interface LoginRole {
  name: string;
  rolsuper: boolean;
  rolbypassrls: boolean;
  rolcreaterole: boolean;
  role_exists: boolean;
  is_member: boolean;
}

/**
 * Makes row-level security apply to this store's connections. Call it after migrations ran
 * (they run as the login role, which owns the tables). When the login role bypasses row
 * security (a superuser, as in CI and many deployments, or BYPASSRLS), it creates a NOLOGIN role
 * without BYPASSRLS (race-safe: another process, or another database of the cluster, may create
 * it at the same moment), grants it what the service needs here (tables, sequences, and the same
 * on tables later migrations create), and every pooled connection then assumes it.
 */
export function enforceRowSecurity(db: Kysely<Schema>, session: SessionRole): Promise<RowSecurity> {
  return inSystemScope(async (): Promise<RowSecurity> => {
    const login = (
      await sql<LoginRole>`
        SELECT r.rolname AS name, r.rolsuper, r.rolbypassrls, r.rolcreaterole,
               EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${ROW_SECURITY_ROLE}) AS role_exists,
               EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${ROW_SECURITY_ROLE} AND pg_has_role(r.rolname, oid, 'MEMBER')) AS is_member
        FROM pg_roles r WHERE r.rolname = session_user`.execute(db)
    ).rows[0];
    if (!login) throw new Error("the login role is not in pg_roles");
    if (!login.rolsuper && !login.rolbypassrls) return { mode: "login-role", loginRole: login.name };
    const canAssume = login.rolsuper || (login.role_exists && login.is_member);
    if (!canAssume && !login.rolcreaterole) {
      return {
        mode: "off",
        loginRole: login.name,
        reason: `the login role '${login.name}' bypasses row-level security and cannot create the role '${ROW_SECURITY_ROLE}' to act as`,
      };
    }
    if (!login.role_exists) await createRole(db);
    // A CREATEROLE login (not superuser) may only assume a role it is a member of.
    if (!login.rolsuper && !login.is_member) await sql.raw(`GRANT ${ROW_SECURITY_ROLE} TO "${login.name.replaceAll('"', '""')}"`).execute(db);
    await grant(db);
    session.name = ROW_SECURITY_ROLE;
    return { mode: "assumed-role", loginRole: login.name, role: ROW_SECURITY_ROLE };
  });
}

/** Creates the role unless it exists; two sessions creating it at once both succeed. */
async function createRole(db: Kysely<Schema>): Promise<void> {
  await sql
    .raw(
      `DO $$ BEGIN
         CREATE ROLE ${ROW_SECURITY_ROLE} NOLOGIN NOBYPASSRLS;
       EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
       END $$`,
    )
    .execute(db);
}

/**
 * What the service does at runtime: read and write rows, use sequences. Not DDL: the few
 * statements that create objects at runtime (the pgvector index of a new vector size) run as
 * the login role (Store.asOwner). Serialised with migrations on this database: concurrent
 * GRANTs on one object fail with "tuple concurrently updated".
 */
async function grant(db: Kysely<Schema>): Promise<void> {
  const role = ROW_SECURITY_ROLE;
  await db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(tx);
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(tx)).rows[0]?.s ?? "public";
    const ident = `"${schema.replaceAll('"', '""')}"`;
    for (const statement of [
      `GRANT USAGE ON SCHEMA ${ident} TO ${role}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${ident} TO ${role}`,
      `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${ident} TO ${role}`,
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${ident} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${ident} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`,
    ]) {
      await sql.raw(statement).execute(tx);
    }
  });
}
