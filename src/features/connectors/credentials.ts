import { Value } from "@sinclair/typebox/value";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import type { SecretBox } from "../../platform/secrets/secret-box.js";
import type { ConnectorProvider, Credentials, VerifiedAccount } from "./provider.js";
import { ProviderError } from "./provider-error.js";

/** Checks credentials against the provider's published credential_schema (422 when they do not match). */
export function checkCredentials(provider: ConnectorProvider, raw: unknown): Credentials {
  const name = provider.descriptor.provider;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw validationError("credentials must be an object");
  if (!Value.Check(provider.descriptor.credentialSchema, raw)) {
    const keys = Object.keys(raw).join(", ") || "none";
    throw validationError(`credentials do not match the ${name} credential_schema (got keys: ${keys}); see GET /connectors/providers?id=${name}`);
  }
  return raw as Credentials;
}

/** A provider failure met while serving a request, as one of our codes. */
export function providerFailure(provider: string, err: unknown, nowMs: number): AppError {
  if (!(err instanceof ProviderError)) throw err;
  switch (err.kind) {
    case "auth":
      return new AppError("CREDENTIALS_REJECTED", `${provider} rejected the credentials: ${err.message}`);
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil(((err.retryAtMs ?? nowMs + 60_000) - nowMs) / 1000));
      return new AppError("RATE_LIMITED", `${provider} is rate-limiting these credentials; retry in ${seconds} seconds`, { "Retry-After": String(seconds) });
    }
    case "bad_cursor":
      return new AppError("INVALID_INPUT", `${provider} refused the cursor: ${err.message}; send the next_cursor of a previous page, or none`);
    case "not_found":
    case "failed":
      return new AppError("PROVIDER_ERROR", `${provider} call failed: ${err.message}`);
  }
}

/** Verifies credentials with the provider; a refusal is 422 CREDENTIALS_REJECTED and nothing is stored. */
export async function verifyCredentials(provider: ConnectorProvider, credentials: Credentials, nowMs: number): Promise<VerifiedAccount> {
  try {
    return await provider.verify(credentials, AbortSignal.timeout(30_000));
  } catch (err) {
    throw providerFailure(provider.descriptor.provider, err, nowMs);
  }
}

/** Credentials at rest: sealed JSON (AES-256-GCM under the master key; platform/secrets). */
export class CredentialVault {
  constructor(private readonly box: SecretBox) {}

  seal(credentials: Credentials): string {
    return this.box.seal(JSON.stringify(credentials));
  }

  open(stored: string): { ok: true; credentials: Credentials } | { ok: false; reason: string } {
    const opened = this.box.open(stored);
    if (!opened.ok) return opened;
    return { ok: true, credentials: JSON.parse(opened.secret) as Credentials };
  }
}
