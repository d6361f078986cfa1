import { InMemoryAliasTable, type AliasKey, type AliasTable, type StoredPerson } from "./alias-table.js";
import type { EntityType, GraphEntity } from "./graph-types.js";
import { entityTypeNamespace } from "./graph-types.js";
import type { Mention } from "./mention.js";
import { normalizeEmail, normalizeHandle, normalizeName } from "./normalize-name.js";
import { entityIdFor, scopeKey, type ResolutionScope } from "./stable-id.js";

// One stable entity_id per real-world entity within a scope (database + collection).
// Rules, strongest evidence first:
// - the same normalised email is the same person; so is the same handle;
// - an item that pairs a name, email and handle links all three;
// - name variants (case, spacing, diacritics, possessives, titles) share one name key;
// - a first-name-only mention joins the one full-name person with that first name, if exactly one;
// - two people with different emails are never merged through a shared name or handle.
// A person's id is the hash of the scope and its strongest key (email > handle > name, then
// lexicographic), so the final ids do not depend on ingestion order. When a new key makes a
// person stronger, its id changes and the old id is reported through takeMerges().

export interface PersonIdentity {
  readonly name?: string | null;
  readonly email?: string | null;
  readonly handle?: string | null;
  /** Copied onto the returned entity; handles are not namespaced by provider. */
  readonly provider?: string;
}

export interface EntityMerge {
  readonly from: string;
  readonly into: string;
}

export interface EntityResolver {
  readonly scope: ResolutionScope;
  /** An ACTOR entity, or undefined when the identity carries no usable key. */
  resolvePerson(identity: PersonIdentity): GraphEntity | undefined;
  /** The entity a mention refers to; undefined for attribute kinds (dates, money...). */
  resolveMention(mention: Mention, provider?: string): GraphEntity | undefined;
  /** Id changes since the last call, oldest first, so stored edges can be repointed. */
  takeMerges(): EntityMerge[];
}

const KEY_RANK: Readonly<Record<string, number>> = { email: 0, handle: 1, name: 2 };

function rankOf(key: AliasKey): number {
  return KEY_RANK[key.slice(0, key.indexOf(":"))] ?? 3;
}

function strongestKey(keys: Iterable<AliasKey>): AliasKey | undefined {
  let best: AliasKey | undefined;
  for (const key of keys) {
    if (best === undefined || rankOf(key) < rankOf(best) || (rankOf(key) === rankOf(best) && key < best)) best = key;
  }
  return best;
}

const emailsOf = (keys: Iterable<AliasKey>): Set<AliasKey> => new Set([...keys].filter((key) => key.startsWith("email:")));

/** True when joining would give one person two different email addresses. */
function emailsConflict(a: Iterable<AliasKey>, b: Iterable<AliasKey>): boolean {
  const left = emailsOf(a);
  const right = emailsOf(b);
  return left.size > 0 && right.size > 0 && ![...right].some((key) => left.has(key));
}

/** Display-name quality: a full name beats a single name beats a handle beats an email. */
function nameScore(name: string): number {
  if (name.includes("@") && !name.startsWith("@")) return 0;
  if (name.startsWith("@")) return 1;
  return name.trim().includes(" ") ? 3 : 2;
}

function identifierOf(person: StoredPerson): string | null {
  const email = person.keys.find((key) => key.startsWith("email:"));
  if (email !== undefined) return email.slice("email:".length);
  const handle = person.keys.find((key) => key.startsWith("handle:"));
  return handle === undefined ? null : `@${handle.slice("handle:".length)}`;
}

class ScopedEntityResolver implements EntityResolver {
  readonly scope: ResolutionScope;
  readonly #key: string;
  readonly #aliases: AliasTable;
  #merges: EntityMerge[] = [];

  constructor(scope: ResolutionScope, aliases: AliasTable = new InMemoryAliasTable()) {
    this.scope = scope;
    this.#key = scopeKey(scope);
    this.#aliases = aliases;
  }

  takeMerges(): EntityMerge[] {
    const merges = this.#merges;
    this.#merges = [];
    return merges;
  }

  resolvePerson(identity: PersonIdentity): GraphEntity | undefined {
    const keys: AliasKey[] = [];
    const email = identity.email ? normalizeEmail(identity.email) : "";
    const handle = identity.handle ? normalizeHandle(identity.handle) : "";
    const name = identity.name ? normalizeName(identity.name) : "";
    if (email.length > 0) keys.push(`email:${email}`);
    if (handle.length > 0) keys.push(`handle:${handle}`);
    if (name.length > 0 && !name.includes("@")) keys.push(`name:${name}`);
    if (keys.length === 0) return undefined;
    const display = identity.name?.trim() || (handle ? `@${handle}` : email);
    if (keys.length === 1 && name.length > 0 && !name.includes(" ")) {
      const known = this.#firstNameOnly(`name:${name}`, name);
      if (known !== undefined) return this.#toEntity(known, identity.provider);
    }
    return this.#toEntity(this.#link(keys, display), identity.provider);
  }

  resolveMention(mention: Mention, provider?: string): GraphEntity | undefined {
    switch (mention.kind) {
      case "person":
        return this.resolvePerson({ name: mention.surface, provider });
      case "email":
        return this.resolvePerson({ email: mention.surface, provider });
      case "mention":
        return this.resolvePerson({ handle: mention.surface, provider });
      case "organization":
        return this.#thing("ORGANIZATION", `org:${mention.key}`, mention.surface, null, provider);
      case "place":
        return this.#thing("PLACE", `place:${mention.key}`, mention.surface, null, provider);
      case "product":
        return this.#thing("PRODUCT", `product:${mention.key}`, mention.surface, null, provider);
      case "hashtag":
        return this.#thing("TOPIC", `topic:${mention.key}`, mention.surface, `#${mention.key}`, provider);
      case "url":
        return this.#thing("REFERENCE", `url:${mention.key}`, mention.surface, mention.surface, provider);
      case "ticket":
        return this.#thing("REFERENCE", `ticket:${mention.key}`, mention.surface, mention.key, provider);
      case "date":
      case "time":
      case "duration":
      case "money":
      case "percent":
        return undefined;
    }
  }

  /** "Ada" is Ada Lovelace when she is the only Ada with a full name or a strong key in scope. */
  #firstNameOnly(key: AliasKey, firstName: string): StoredPerson | undefined {
    const bare = this.#aliases.findByKey(this.#key, key);
    const candidates = new Map<string, StoredPerson>();
    for (const person of this.#aliases.findByFirstName(this.#key, firstName)) candidates.set(person.entityId, person);
    if (bare !== undefined && bare.keys.some((other) => !other.startsWith("name:"))) candidates.set(bare.entityId, bare);
    if (candidates.size === 1) return [...candidates.values()][0];
    return bare;
  }

  #link(keys: readonly AliasKey[], display: string): StoredPerson {
    const matched: StoredPerson[] = [];
    const union = new Set<AliasKey>();
    for (const key of keys) {
      const found = this.#aliases.findByKey(this.#key, key);
      if (found === undefined) {
        if (!emailsConflict(union, [key])) union.add(key);
        continue;
      }
      if (matched.some((person) => person.entityId === found.entityId)) continue;
      // A name or handle already bound to someone with another email stays theirs.
      if (emailsConflict(union, found.keys)) continue;
      matched.push(found);
      union.add(key);
      for (const known of found.keys) union.add(known);
    }
    const strongest = strongestKey(union) ?? keys[0] ?? "name:";
    const entityId = entityIdFor(this.scope, strongest);
    let name = display;
    for (const person of matched) if (nameScore(person.name) >= nameScore(name)) name = person.name;
    if (nameScore(display) > nameScore(name)) name = display;
    const person: StoredPerson = { entityId, name, keys: [...union].sort() };
    const only = matched.length === 1 ? matched[0] : undefined;
    if (only !== undefined && only.entityId === entityId && only.name === name && only.keys.length === person.keys.length) {
      return only;
    }
    for (const old of matched) {
      if (old.entityId === entityId) continue;
      this.#aliases.remove(this.#key, old.entityId);
      this.#merges.push({ from: old.entityId, into: entityId });
    }
    this.#aliases.save(this.#key, person);
    return person;
  }

  #toEntity(person: StoredPerson, provider: string | undefined): GraphEntity {
    const entity: GraphEntity = {
      name: person.name,
      type: "ACTOR",
      namespace: "actors",
      entity_id: person.entityId,
      identifier: identifierOf(person),
    };
    return provider === undefined ? entity : { ...entity, provider };
  }

  #thing(type: EntityType, key: string, surface: string, identifier: string | null, provider: string | undefined): GraphEntity {
    const entity: GraphEntity = {
      name: surface.trim(),
      type,
      namespace: entityTypeNamespace(type),
      entity_id: entityIdFor(this.scope, key),
      identifier,
    };
    return provider === undefined ? entity : { ...entity, provider };
  }
}

export function createEntityResolver(scope: ResolutionScope, aliases?: AliasTable): EntityResolver {
  return new ScopedEntityResolver(scope, aliases);
}
