/** One ordered schema step, written once per backend. Never edit a landed migration: add one. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}
