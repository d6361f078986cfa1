import { AppError } from "../../platform/errors/app-error.js";
import type { Executor } from "../../platform/store/db.js";
import { organizationIds } from "./portability-store.js";

/** The organization named, which must exist, or the store's only one. */
export async function chooseOrganization(db: Executor, given: string | undefined): Promise<string> {
  const ids = await organizationIds(db);
  if (given !== undefined) {
    if (!ids.includes(given)) throw new AppError("NOT_FOUND", `organization ${given} not found (see \`org list\`)`);
    return given;
  }
  const [only, ...others] = ids;
  if (only === undefined) throw new AppError("NOT_FOUND", "the store has no organization: create one with `org create`");
  if (others.length > 0) throw new AppError("INVALID_INPUT", "--org is required: the store has several organizations (see `org list`)");
  return only;
}
