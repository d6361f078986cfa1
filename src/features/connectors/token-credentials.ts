import { Type, type TSchema } from "@sinclair/typebox";
import type { Credentials } from "./provider.js";

/**
 * Credential schema of the token providers (Slack, GitHub, Linear, Notion): one token, under
 * `access_token` or its older name `api_token` (both are in the vendor's docs), nothing else.
 */
export function tokenCredentialSchema(description: string): TSchema {
  const token = Type.String({ minLength: 1, maxLength: 4096, description });
  return Type.Union([
    Type.Object({ access_token: token }, { additionalProperties: false }),
    Type.Object({ api_token: token }, { additionalProperties: false }),
  ]);
}

/** The token of validated token credentials. */
export function tokenOf(credentials: Credentials): string {
  const token = credentials.access_token ?? credentials.api_token;
  if (token === undefined) throw new Error("token credentials without access_token or api_token");
  return token;
}
