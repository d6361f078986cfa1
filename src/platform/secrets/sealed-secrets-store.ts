import type { Executor } from "../store/db.js";

/** Which secret a sealed value is: its box, and the row that holds it. */
export type SealedKind = "webhooks" | "connectors" | "fileUrl";

export interface SealedValue {
  readonly kind: SealedKind;
  /** The row's key: the organization (webhooks), the connector id, the settings name. */
  readonly rowId: string;
  readonly stored: string;
}

/** Every secret the service keeps at rest, read and replaced where it lives (store-wide: run in system scope). */
export class SealedSecretsStore {
  constructor(private readonly db: Executor) {}

  async all(): Promise<SealedValue[]> {
    const endpoints = await this.db.selectFrom("webhook_endpoints").select(["org_id", "signing_secret"]).where("signing_secret", "is not", null).execute();
    const connectors = await this.db.selectFrom("connectors").select(["id", "credentials"]).execute();
    const settings = await this.db.selectFrom("settings").select(["name", "value"]).where("name", "=", "file_url_secret").execute();
    return [
      ...endpoints.map((r) => ({ kind: "webhooks" as const, rowId: r.org_id, stored: r.signing_secret ?? "" })),
      ...connectors.map((r) => ({ kind: "connectors" as const, rowId: r.id, stored: r.credentials })),
      ...settings.map((r) => ({ kind: "fileUrl" as const, rowId: r.name, stored: r.value })),
    ];
  }

  /** Writes `sealed` only where the row still holds what was read: a concurrent change wins. */
  async replace(value: SealedValue, sealed: string): Promise<void> {
    switch (value.kind) {
      case "webhooks":
        await this.db
          .updateTable("webhook_endpoints")
          .set({ signing_secret: sealed })
          .where("org_id", "=", value.rowId)
          .where("signing_secret", "=", value.stored)
          .execute();
        return;
      case "connectors":
        await this.db.updateTable("connectors").set({ credentials: sealed }).where("id", "=", value.rowId).where("credentials", "=", value.stored).execute();
        return;
      case "fileUrl":
        await this.db.updateTable("settings").set({ value: sealed }).where("name", "=", value.rowId).where("value", "=", value.stored).execute();
        return;
    }
  }

  /** Moves the store's recorded master key id from `from` to `to` (no change if another process moved it first). */
  async recordKeyId(name: string, from: string, to: string): Promise<void> {
    await this.db.updateTable("settings").set({ value: to }).where("name", "=", name).where("value", "=", from).execute();
  }
}
