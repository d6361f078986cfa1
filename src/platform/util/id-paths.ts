import { isAbsolute, relative, resolve } from "node:path";
import { AppError } from "../errors/app-error.js";
import { isGeneratedId } from "./ids.js";

/**
 * `folder/<segments>`, refused unless every segment is an id the service generates and the result
 * stays inside `folder`: the one way a path is built from a row's ids (a file's bytes, a
 * database's folder), so that no id, from an archive or a damaged row, can name a file elsewhere.
 */
export function pathOfIds(folder: string, ...ids: readonly string[]): string {
  for (const id of ids) {
    if (!isGeneratedId(id))
      throw new AppError("INVALID_INPUT", `${JSON.stringify(String(id).slice(0, 80))} is not an id of this service: no file path is made of it`);
  }
  const root = resolve(folder);
  const path = resolve(root, ...ids);
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw new AppError("INVALID_INPUT", `${path} is not inside ${root}`);
  return path;
}
