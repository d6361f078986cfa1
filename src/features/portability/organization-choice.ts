import { AppError } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import { OrgService } from "../organizations/service.js";
import { organizationIds } from "./portability-store.js";

/** Which organization an operator command works on, and how it was found. */
export interface OrganizationChoice {
  readonly id: string;
  /** `option`: named with --org; `key`: the organization of the API key given; `only`: the store's only one. */
  readonly how: "option" | "key" | "only";
}

/** What the operator gave: an organization id, or an API key (--api-key, CONTEXT_STORE_API_KEY). */
export interface OrganizationHint {
  readonly orgId?: string | undefined;
  readonly apiKey?: string | undefined;
}

/**
 * The organization named (which must exist), else the one of the API key given when this store
 * knows the key, else the store's only one. Null when the store has no organization at all (an
 * import then creates one); several organizations and neither hint is a refusal.
 */
export async function chooseOrganization(store: Store, hint: OrganizationHint): Promise<OrganizationChoice | null> {
  const ids = await organizationIds(store.db);
  if (hint.orgId !== undefined) {
    if (!ids.includes(hint.orgId)) throw new AppError("NOT_FOUND", `organization ${hint.orgId} not found (see \`org list\`)`);
    return { id: hint.orgId, how: "option" };
  }
  if (hint.apiKey !== undefined) {
    const principal = await new OrgService(store).authenticate(hint.apiKey);
    if (principal !== null) return { id: principal.orgId, how: "key" };
  }
  const [only, ...others] = ids;
  if (only === undefined) return null;
  if (others.length > 0) {
    const key = hint.apiKey === undefined ? "" : " (the API key given is not an active key of this store)";
    throw new AppError("INVALID_INPUT", `the store has ${ids.length} organizations${key}: name one with --org (see \`org list\`) or give one of its API keys`);
  }
  return { id: only, how: "only" };
}
