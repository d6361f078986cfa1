import { InMemoryAliasTable, type AliasKey, type AliasTable, type StoredPerson } from "../../engines/extraction/index.js";
import { firstNameOf, normalizeEmail, normalizeHandle, normalizeName } from "../../engines/extraction/normalize-name.js";
import type { Executor } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";

/**
 * The people whose aliases match the keys, found through the alias index; compiled once per key
 * count (statement-templates.ts): each query naming someone and each item's graph build reads it.
 */
const peopleByAlias = statementTemplate(
  (v: { orgId: string; scope: string; keys: readonly string[] }) => String(v.keys.length),
  (db, v) =>
    db
      .selectFrom("context_graph_people")
      .selectAll()
      .where("org_id", "=", v.orgId)
      .where("scope", "=", v.scope)
      .where("entity_id", "in", (eb) =>
        eb.selectFrom("context_graph_aliases").select("entity_id").where("org_id", "=", v.orgId).where("scope", "=", v.scope).where("alias_key", "in", v.keys),
      ),
);

/**
 * The resolver's alias table persisted in context_graph_people / context_graph_aliases.
 * Resolution is synchronous, so an item's build first loads every stored person any of its
 * identities could match (by email, handle, name or first name), resolves in memory, then
 * writes back the people it saved or removed, in the same transaction.
 */
export interface IdentityHint {
  readonly name?: string | null;
  readonly email?: string | null;
  readonly handle?: string | null;
}

const FIRST = "first:";

/** The alias rows a person is found by: its keys plus `first:<name>` for each full name. */
function aliasKeysOf(person: StoredPerson): string[] {
  const keys: string[] = [...person.keys];
  for (const key of person.keys) {
    if (key.startsWith("name:") && key.includes(" ")) keys.push(`${FIRST}${firstNameOf(key.slice("name:".length))}`);
  }
  return [...new Set(keys)];
}

/** Every alias key a lookup for these identities may touch. */
function candidateKeys(hints: readonly IdentityHint[]): string[] {
  const keys = new Set<string>();
  for (const hint of hints) {
    const email = hint.email ? normalizeEmail(hint.email) : "";
    const handle = hint.handle ? normalizeHandle(hint.handle) : "";
    const name = hint.name ? normalizeName(hint.name) : "";
    if (email) keys.add(`email:${email}`);
    if (handle) keys.add(`handle:${handle}`);
    if (name && !name.includes("@")) {
      keys.add(`name:${name}`);
      keys.add(`${FIRST}${name.includes(" ") ? firstNameOf(name) : name}`);
    }
  }
  return [...keys];
}

/** An in-memory table that remembers what changed, so only that is written back. */
class TrackedAliasTable implements AliasTable {
  readonly saved = new Map<string, StoredPerson>();
  readonly removed = new Set<string>();
  constructor(private readonly inner: InMemoryAliasTable) {}

  findByKey(scope: string, key: AliasKey): StoredPerson | undefined {
    return this.inner.findByKey(scope, key);
  }
  findByFirstName(scope: string, firstName: string): readonly StoredPerson[] {
    return this.inner.findByFirstName(scope, firstName);
  }
  save(scope: string, person: StoredPerson): void {
    this.inner.save(scope, person);
    this.saved.set(person.entityId, person);
    this.removed.delete(person.entityId);
  }
  remove(scope: string, entityId: string): void {
    this.inner.remove(scope, entityId);
    this.saved.delete(entityId);
    this.removed.add(entityId);
  }
}

/** The database (and its organization) whose people an alias table holds. */
export type AliasOwner = Pick<DatabaseTenancy, "orgId" | "databaseId">;

export class LoadedAliasTable {
  private constructor(
    readonly table: TrackedAliasTable,
    private readonly owner: AliasOwner,
    private readonly scope: string,
  ) {}

  /** `scope` is the stored scope column; `resolverScope` the key the resolver looks people up under. */
  static async load(tx: Executor, owner: AliasOwner, scope: string, resolverScope: string, hints: readonly IdentityHint[]): Promise<LoadedAliasTable> {
    const inner = new InMemoryAliasTable();
    const keys = candidateKeys(hints);
    const seen = new Set<string>();
    // One statement per 500 keys: the people whose aliases match, found through the alias index.
    for (let i = 0; i < keys.length; i += 500) {
      const people = await peopleByAlias.run(tx, { orgId: owner.orgId, scope, keys: keys.slice(i, i + 500) });
      for (const p of people) {
        if (seen.has(p.entity_id)) continue;
        seen.add(p.entity_id);
        inner.save(resolverScope, { entityId: p.entity_id, name: p.name, keys: JSON.parse(p.keys) as AliasKey[] });
      }
    }
    return new LoadedAliasTable(new TrackedAliasTable(inner), owner, scope);
  }

  /** Writes back the people saved and removed since load. */
  async flush(tx: Executor): Promise<void> {
    const { saved, removed } = this.table;
    const touched = [...new Set([...saved.keys(), ...removed])];
    if (touched.length > 0) await deletePeople(tx, this.owner, this.scope, touched);
    for (const person of saved.values()) {
      await tx
        .insertInto("context_graph_people")
        .values({
          org_id: this.owner.orgId,
          database_id: this.owner.databaseId,
          scope: this.scope,
          entity_id: person.entityId,
          name: person.name,
          keys: JSON.stringify(person.keys),
        })
        .execute();
      const rows = aliasKeysOf(person).map((alias_key) => ({
        org_id: this.owner.orgId,
        database_id: this.owner.databaseId,
        scope: this.scope,
        alias_key,
        entity_id: person.entityId,
      }));
      await tx
        .insertInto("context_graph_aliases")
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    saved.clear();
    removed.clear();
  }
}

/** Forgets people (merged away, or no longer mentioned by any item). */
export async function deletePeople(tx: Executor, owner: AliasOwner, scope: string, entityIds: readonly string[]): Promise<void> {
  for (let i = 0; i < entityIds.length; i += 500) {
    const part = entityIds.slice(i, i + 500);
    await tx.deleteFrom("context_graph_aliases").where("org_id", "=", owner.orgId).where("scope", "=", scope).where("entity_id", "in", part).execute();
    await tx.deleteFrom("context_graph_people").where("org_id", "=", owner.orgId).where("scope", "=", scope).where("entity_id", "in", part).execute();
  }
}
