/**
 * Document ACLs. An item's `acl` is a list of principals (`user@example.com`,
 * `domain:example.com`, `group:<provider>:<id>`, ...), or null for unrestricted. A caller
 * presenting principals sees an item when its acl is null or shares one of them; an e-mail
 * principal also holds its domain, so `ada@example.com` sees items granted to
 * `domain:example.com`. Principals compare lowercased. List, query and subgraph share this rule.
 */

const EMAIL = /^[^@\s:]+@([^@\s]+)$/;

/** The caller's principals plus those they imply (each e-mail's `domain:`), lowercased, deduplicated. */
export function expandPrincipals(principals: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of principals) {
    const p = raw.trim().toLowerCase();
    if (p.length === 0) continue;
    out.add(p);
    const domain = EMAIL.exec(p)?.[1];
    if (domain) out.add(`domain:${domain}`);
  }
  return [...out];
}

/** Whether a caller holding `principals` may see an item with `itemAcl` (null: unrestricted). */
export function aclAllows(itemAcl: readonly string[] | null, principals: readonly string[]): boolean {
  if (itemAcl === null) return true;
  const held = new Set(expandPrincipals(principals));
  return itemAcl.some((p) => held.has(p.toLowerCase()));
}
