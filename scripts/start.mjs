// `npm start`: builds dist/ only when a source file changed since the last build (scripts/build.mjs),
// then runs the service in this same process (so signals reach it directly; no child to forward
// them to). Deleted sources leave their old .js behind, which nothing imports.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, isStale } from "./build.mjs";

if (isStale()) {
  console.error("building dist/ (sources changed since the last build)...");
  build();
}
await import(pathToFileURL(join(process.cwd(), "dist", "main.js")).href);
