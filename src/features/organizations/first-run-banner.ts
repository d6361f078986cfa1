import type { FirstOrganization } from "./service.js";

/**
 * What the first start prints once, on stdout and whatever LOG_LEVEL says: the new key (its
 * only appearance; the store keeps a hash) and a request to paste. Wildcard listen addresses
 * are shown as loopback, which is where a user on the same machine reaches the service.
 */
export function firstRunBanner(created: FirstOrganization, host: string, port: number): string {
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const base = `http://${shownHost}:${port}`;
  return [
    "",
    "==================================================================================",
    ` First run: created organization "${created.org.name}" (${created.org.id}) and an API key.`,
    " The key is shown only this once (only its hash is stored); copy it now:",
    "",
    `   export KEY=${created.key}`,
    "",
    " Then try it, e.g. create a database:",
    "",
    `   curl -s -X POST ${base}/databases -H "Authorization: Bearer $KEY" \\`,
    `     -H "Content-Type: application/json" -d '{"database": "my_db"}'`,
    "",
    " More keys: npx context-store key create --org " + created.org.id,
    "==================================================================================",
    "",
  ].join("\n");
}
