import { firstNameOf } from "./normalize-name.js";

// Where resolved people live between calls. The resolver holds the rules; the table only stores
// and indexes. It is synchronous so resolution stays a pure in-process step: a SQLite-backed table
// can answer directly (better-sqlite3 is synchronous), a PostgreSQL-backed one can load a scope's
// rows before a batch and write back what `save`/`remove` changed afterwards.

/** A canonical key: `email:<address>`, `handle:<handle>` or `name:<normalised name>`. */
export type AliasKey = `${"email" | "handle" | "name"}:${string}`;

export interface StoredPerson {
  readonly entityId: string;
  /** Best display name seen so far (a full name beats a handle beats an email). */
  readonly name: string;
  readonly keys: readonly AliasKey[];
}

export interface AliasTable {
  findByKey(scope: string, key: AliasKey): StoredPerson | undefined;
  /** People whose name key has more than one word and starts with `firstName`. */
  findByFirstName(scope: string, firstName: string): readonly StoredPerson[];
  /** Upserts the person and binds every one of its keys to it. */
  save(scope: string, person: StoredPerson): void;
  /** Drops a person that was merged into another; its keys are rebound by the following save. */
  remove(scope: string, entityId: string): void;
}

function fullNamesOf(person: StoredPerson): string[] {
  return person.keys.filter((key) => key.startsWith("name:") && key.includes(" ")).map((key) => key.slice("name:".length));
}

export class InMemoryAliasTable implements AliasTable {
  readonly #people = new Map<string, Map<string, StoredPerson>>();
  readonly #byKey = new Map<string, Map<AliasKey, string>>();
  readonly #byFirstName = new Map<string, Map<string, Set<string>>>();

  #scoped<V>(maps: Map<string, V>, scope: string, create: () => V): V {
    let value = maps.get(scope);
    if (value === undefined) {
      value = create();
      maps.set(scope, value);
    }
    return value;
  }

  findByKey(scope: string, key: AliasKey): StoredPerson | undefined {
    const entityId = this.#byKey.get(scope)?.get(key);
    return entityId === undefined ? undefined : this.#people.get(scope)?.get(entityId);
  }

  findByFirstName(scope: string, firstName: string): readonly StoredPerson[] {
    const ids = this.#byFirstName.get(scope)?.get(firstName);
    const people = this.#people.get(scope);
    if (ids === undefined || people === undefined) return [];
    return [...ids].sort().flatMap((id) => people.get(id) ?? []);
  }

  save(scope: string, person: StoredPerson): void {
    this.remove(scope, person.entityId);
    this.#scoped(this.#people, scope, () => new Map<string, StoredPerson>()).set(person.entityId, person);
    const byKey = this.#scoped(this.#byKey, scope, () => new Map<AliasKey, string>());
    for (const key of person.keys) byKey.set(key, person.entityId);
    const byFirst = this.#scoped(this.#byFirstName, scope, () => new Map<string, Set<string>>());
    for (const name of fullNamesOf(person)) {
      const first = firstNameOf(name);
      const ids = byFirst.get(first) ?? new Set<string>();
      ids.add(person.entityId);
      byFirst.set(first, ids);
    }
  }

  remove(scope: string, entityId: string): void {
    const person = this.#people.get(scope)?.get(entityId);
    if (person === undefined) return;
    this.#people.get(scope)?.delete(entityId);
    const byKey = this.#byKey.get(scope);
    for (const key of person.keys) {
      if (byKey?.get(key) === entityId) byKey.delete(key);
    }
    for (const name of fullNamesOf(person)) this.#byFirstName.get(scope)?.get(firstNameOf(name))?.delete(entityId);
  }
}
