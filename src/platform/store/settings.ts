import type { Executor } from "./db.js";

/** Store-wide named values that every node reads the same (table `settings`). */
export class SettingsStore {
  constructor(private readonly db: Executor) {}

  /**
   * The value stored under `name`, storing `create()` first when there is none. Concurrent
   * first calls from several nodes agree: the first insert wins, the others read it back.
   */
  async getOrCreate(name: string, create: () => string, now: number): Promise<string> {
    await this.db
      .insertInto("settings")
      .values({ name, value: create(), created_at: now })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const row = await this.db.selectFrom("settings").select("value").where("name", "=", name).executeTakeFirstOrThrow();
    return row.value;
  }
}
