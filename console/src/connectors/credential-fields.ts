// Reads a provider's `credential_schema` (a JSON Schema: one object, or a union of objects such as
// {access_token} | {api_token}) into the fields of a credentials form, so the form follows the
// provider's own declaration instead of a list kept in the console.

export interface CredentialField {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** Typed into a password input: tokens, secrets, keys. */
  readonly secret: boolean;
}

export interface CredentialVariant {
  /** How the variant is offered when there are several: its field names. */
  readonly label: string;
  readonly fields: readonly CredentialField[];
}

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const SECRET = /token|secret|password|key/i;

function objectVariant(schema: Json): CredentialVariant | null {
  if (!isObject(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const fields = Object.entries(schema.properties).map(([name, property]) => ({
    name,
    description: isObject(property) && typeof property.description === "string" ? property.description : "",
    required: required.has(name),
    secret: SECRET.test(name),
  }));
  return { label: fields.map((f) => f.name).join(" + "), fields };
}

/** The ways the schema accepts credentials; empty when it declares none the console can read. */
export function credentialVariants(schema: unknown): CredentialVariant[] {
  if (!isObject(schema)) return [];
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [schema];
  return alternatives.filter(isObject).flatMap((alternative) => objectVariant(alternative) ?? []);
}

/** The filled-in values of one variant as the credentials object; blank fields are left out. */
export function credentialsOf(variant: CredentialVariant, values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of variant.fields) {
    const value = values[field.name]?.trim() ?? "";
    if (value !== "") out[field.name] = value;
  }
  return out;
}
