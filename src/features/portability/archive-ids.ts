import { createHash } from "node:crypto";
import { AppError } from "../../platform/errors/app-error.js";
import { isGeneratedId, newId } from "../../platform/util/ids.js";
import type { ArchiveReader, Manifest } from "./archive.js";
import { rowProblem, vectorProblem } from "./archive-row-check.js";
import { EntityIdMap } from "./entity-ids.js";
import { ENTITY_COLUMNS, ID_COLUMNS, SCOPED_BY_DATABASE, type IdColumn, type IdKind } from "./id-columns.js";
import type { ColumnInfo, PlainRow } from "./portability-store.js";
import { DATABASE_TABLES } from "./table-plan.js";

/** The kinds whose new ids are drawn in the archive's order and looked up (chunks' are derived). */
type MappedKind = "item" | "blob" | "connector" | "graph";
const MAPPED: ReadonlySet<IdKind> = new Set<IdKind>(["item", "blob", "connector", "graph"]);
const isMapped = (kind: IdKind): kind is MappedKind => MAPPED.has(kind);

const quoted = (value: unknown): string => JSON.stringify(typeof value === "string" ? value.slice(0, 80) : value) ?? String(value);

function refused(table: string, line: number, problem: string): AppError {
  return new AppError("INVALID_INPUT", `the archive's ${table} row ${line} ${problem}: nothing was imported`);
}

function jsonOf(text: unknown): unknown {
  try {
    return JSON.parse(String(text)) as unknown;
  } catch {
    // Not JSON: the caller refuses the row with its own words.
    return undefined;
  }
}

/**
 * An archive's ids and the new ones an import gives them. `read` goes through every row once,
 * before anything is written, and refuses the archive at the first row that does not fit (a
 * column the table lacks or of the wrong type, an id not of the form the service generates, a
 * row of another organization or database than the archive's, a reference to a row the archive
 * does not hold). `rewrite` then gives each row its new ids: the database's, its items', files',
 * connectors', chunks' and graphs' (new, so an archive can be imported into any organization of
 * any store, several times, next to the one it came from), and the context graph's entity and
 * relationship ids derived for the new database (entity-ids.ts).
 */
export class ArchiveIds {
  /** The imported database's id in the target. */
  readonly databaseId = newId();
  private readonly salt = newId();
  private readonly ids: Record<MappedKind, Map<string, string>> = { item: new Map(), blob: new Map(), connector: new Map(), graph: new Map() };
  private readonly entities: EntityIdMap;
  private readonly archiveDatabase: string;
  private readonly archiveOrg: string;
  private databases = 0;

  private constructor(manifest: Manifest) {
    this.archiveDatabase = manifest.database.id;
    this.archiveOrg = manifest.database.org_id;
    this.entities = new EntityIdMap(this.archiveDatabase, this.databaseId);
  }

  /** Checks every row of the archive against the target's tables (`columns`); throws INVALID_INPUT at the first misfit. */
  static async read(reader: ArchiveReader, columns: (table: string) => Promise<readonly ColumnInfo[]>): Promise<ArchiveIds> {
    const manifest = reader.manifest;
    if (!isGeneratedId(manifest.database.id) || !isGeneratedId(manifest.database.org_id))
      throw new AppError("INVALID_INPUT", "the archive's manifest names a database or organization id this service does not generate: nothing was imported");
    const ids = new ArchiveIds(manifest);
    for (const plan of DATABASE_TABLES) {
      const known = new Map((await columns(plan.table)).map((c) => [c.name, c]));
      let line = 0;
      for await (const rows of reader.rows(plan.table)) {
        for (const row of rows) {
          line += 1;
          ids.check(plan.table, line, row, known);
        }
      }
    }
    if (ids.databases !== 1) throw new AppError("INVALID_INPUT", `the archive holds ${ids.databases} database rows, not 1: nothing was imported`);
    return ids;
  }

  /** How many of the context graph's entity ids were derived for the new database (the others are kept). */
  get rederivedEntities(): number {
    return this.entities.size;
  }

  /** The new ids of the archive's connectors, by their id in the archive. */
  get connectors(): ReadonlyMap<string, string> {
    return this.ids.connector;
  }

  private check(table: string, line: number, row: PlainRow, columns: ReadonlyMap<string, ColumnInfo>): void {
    const problem = rowProblem(row, columns);
    if (problem !== null) throw refused(table, line, problem);
    if ("org_id" in row && row.org_id !== this.archiveOrg)
      throw refused(table, line, `belongs to organization ${quoted(row.org_id)}, not to the archive's ${this.archiveOrg}`);
    if (table === "databases") {
      this.databases += 1;
      if (row.id !== this.archiveDatabase) throw refused(table, line, `is database ${quoted(row.id)}, not the archive's ${this.archiveDatabase}`);
    } else if (row.database_id !== this.archiveDatabase) {
      throw refused(table, line, `belongs to database ${quoted(row.database_id)}, not to the archive's ${this.archiveDatabase}`);
    }
    for (const id of ID_COLUMNS[table] ?? []) this.checkId(table, line, row, id);
    if (SCOPED_BY_DATABASE.has(table) && !String(row.scope).startsWith(`${this.archiveDatabase}|`))
      throw refused(table, line, `has scope ${quoted(row.scope)}, not one of the archive's database`);
    if (table === "context_vectors") {
      const bad = vectorProblem(row);
      if (bad !== null) throw refused(table, line, bad);
    }
    if (table === "context_graph_triplets") {
      const relations = jsonOf(row.relations);
      if (!Array.isArray(relations) || !relations.every((r) => r !== null && typeof r === "object"))
        throw refused(table, line, "has relations that are not a JSON array of objects");
    }
    if (table === "context_graph_entities") this.entities.learnEntity(row as Parameters<EntityIdMap["learnEntity"]>[0]);
    if (table === "context_graph_people") {
      const keys = jsonOf(row.keys);
      if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) throw refused(table, line, "has keys that are not a JSON array of text");
      const scope = String(row.scope);
      this.entities.learn(scope.slice(scope.indexOf("|") + 1), String(row.entity_id), keys);
    }
  }

  private checkId(table: string, line: number, row: PlainRow, id: IdColumn): void {
    const value = row[id.column];
    if (value === null || value === undefined) {
      if (id.nullable) return;
      throw refused(table, line, `has no ${id.column}`);
    }
    if (value === "" && id.empty) return;
    if (!isGeneratedId(value)) throw refused(table, line, `has ${id.column} ${quoted(value)}, which is not an id this service generates`);
    if (!isMapped(id.kind)) return;
    const ids = this.ids[id.kind];
    if (id.own) {
      if (ids.has(value)) throw refused(table, line, `repeats ${id.column} ${value}`);
      ids.set(value, newId());
    } else if (!ids.has(value)) {
      throw refused(table, line, `refers to ${id.kind} ${value} (${id.column}), which the archive does not hold`);
    }
  }

  /** The row with its new ids (database, rows, entities, relationships); its organization is set by the caller. */
  rewrite(table: string, source: PlainRow): PlainRow {
    const row: PlainRow = { ...source };
    if (table === "databases") row.id = this.databaseId;
    else row.database_id = this.databaseId;
    for (const id of ID_COLUMNS[table] ?? []) {
      const value = row[id.column];
      if (typeof value !== "string" || value === "" || id.kind === "database") continue;
      row[id.column] = id.kind === "chunk" ? this.chunkId(value) : id.kind === "run" ? null : this.mapped(id.kind, value);
    }
    for (const column of ENTITY_COLUMNS[table] ?? []) row[column] = this.entities.map(String(row[column]));
    if (SCOPED_BY_DATABASE.has(table)) row.scope = `${this.databaseId}${String(row.scope).slice(this.archiveDatabase.length)}`;
    if (table === "context_graph_triplets") {
      const relations = jsonOf(row.relations) as Array<Record<string, unknown>>;
      row.relations = JSON.stringify(relations.map((r) => this.entities.relation(r, (old) => (old === "" ? "" : this.chunkId(old)))));
    }
    // A connector's items name it in their metadata and content (additional_metadata.connector_id).
    if (table === "context_items" && typeof source.connector_id === "string") {
      const [from, to] = [source.connector_id, String(row.connector_id)];
      for (const [column, value] of Object.entries(row)) if (typeof value === "string" && value.includes(from)) row[column] = value.replaceAll(from, to);
    }
    return row;
  }

  private mapped(kind: MappedKind, old: string): string {
    const id = this.ids[kind].get(old);
    if (id === undefined) throw new Error(`${kind} ${old} was not read before its rows were written`);
    return id;
  }

  /**
   * A chunk's new id, derived from its old one rather than drawn and remembered (an archive can
   * hold millions): the old id's first 48 bits (UUIDv7's time, so chunks made together stay
   * together in the chunk id's index), then the version and bits of a hash of the import's salt
   * and the old id.
   */
  private chunkId(old: string): string {
    const h = createHash("sha256").update(this.salt).update(old).digest("hex");
    const variant = ((parseInt(h[3] ?? "0", 16) & 0x3) | 0x8).toString(16);
    return `${old.slice(0, 8)}-${old.slice(9, 13)}-7${h.slice(0, 3)}-${variant}${h.slice(4, 7)}-${h.slice(7, 19)}`;
  }
}
