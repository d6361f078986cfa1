// Which files the upload sends: the service's own rule (detect-format.ts), asked before sending, so
// an unsupported file is refused here with the accepted list instead of getting an id and failing.
import { ACCEPTED_EXTENSIONS, claimedFormat } from "../../../src/engines/documents/parse/detect-format.js";

const dotted = ACCEPTED_EXTENSIONS.map((e) => `.${e}`);

/** For the file dialog's `accept`: it offers these first (a drop or "All files" can bring others). */
export const ACCEPT_ATTRIBUTE = dotted.join(",");

/** The accepted extensions, for messages and hints. */
export const ACCEPTED_LIST = dotted.join(", ");

/** Why `file` is not sent, or null when the service parses files like it. */
export function refusalOf(file: File): string | null {
  if (claimedFormat(file.name, file.type === "" ? undefined : file.type) !== undefined) return null;
  const dot = file.name.lastIndexOf(".");
  const kind = dot > 0 ? `${file.name.slice(dot).toLowerCase()} files are` : "a file without an extension is";
  return `${file.name}: not sent, ${kind} not supported. Accepted: ${ACCEPTED_LIST}.`;
}
