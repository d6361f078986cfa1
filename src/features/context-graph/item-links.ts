import { referenceId, validateAppItem, type NormalizedAppItem } from "../../engines/documents/app-items/index.js";
import type { ItemRow } from "../items/store.js";

/** An item-level link declared by an item, addressed by the target's public source id. */
export interface ItemLink {
  /** The target's source id; for a provider-aware target without kind, `provider:external_id` until resolved. */
  readonly targetSourceId: string;
  /** Set for a provider-aware target without kind: the builder resolves it to a source id. */
  readonly external?: { readonly provider: string; readonly externalId: string };
  readonly kind: "relates_to" | "parent";
  /** The declared relation type (`references`, `reply_to`...), `parent_of` for parents. */
  readonly relationType: string;
}

/** Plain `relations.ids` carry no type of their own: they are references. */
const DEFAULT_RELATION_TYPE = "references";

/** Fields that place an item under a container when no explicit parent is given. */
const CONTAINER_FIELDS = ["project_id", "project", "database_id", "database", "space_id", "folder_id"] as const;

/** The app item as normalised at ingestion, re-read from the stored JSON; null for files and memories. */
export function appItemOf(item: ItemRow): NormalizedAppItem | null {
  if (item.origin !== "app" || item.content === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(item.content);
  } catch {
    // Stored content that is not JSON is not an app item: no links to read from it.
    return null;
  }
  const read = validateAppItem(raw);
  return read.ok ? read.item : null;
}

function relationIdsOf(item: ItemRow): string[] {
  try {
    const parsed = JSON.parse(item.relations) as { ids?: unknown };
    return Array.isArray(parsed.ids) ? parsed.ids.filter((id): id is string => typeof id === "string" && id.length > 0) : [];
  } catch {
    // Relations that are not JSON name no ids: the item simply links to nothing.
    return [];
  }
}

function declaresList(item: ItemRow): boolean {
  try {
    return Array.isArray((JSON.parse(item.content ?? "{}") as { relations?: unknown }).relations);
  } catch {
    // Content that is not JSON declares no relations list.
    return false;
  }
}

function parentOf(item: ItemRow, app: NormalizedAppItem | null): string | null {
  if (item.parent_id !== null) return item.parent_id;
  if (app === null) return null;
  for (const field of CONTAINER_FIELDS) {
    const ref = referenceId(app.fields[field], app.provider);
    // A bare name ("Platform") is a label, not an item; only structured or prefixed ids link.
    if (ref !== undefined && (typeof app.fields[field] === "object" || ref.includes(":"))) return ref;
  }
  return null;
}

/** What the item links to: its explicit relations (with their types) and its parent. */
export function itemLinksOf(item: ItemRow, app: NormalizedAppItem | null): ItemLink[] {
  const links = new Map<string, ItemLink>();
  const add = (link: ItemLink): void => {
    if (link.targetSourceId === item.source_id) return;
    links.set(`${link.kind}\u0000${link.targetSourceId}\u0000${link.relationType}`, link);
  };
  // Only a `relations[]` list names its predicates; `{ids}` (either shape) are plain references.
  if (app !== null && app.relations.length > 0 && declaresList(item)) {
    for (const relation of app.relations) {
      const t = relation.target;
      if (t.type === "id") add({ targetSourceId: t.id, kind: "relates_to", relationType: relation.predicate });
      else if (t.id !== undefined) add({ targetSourceId: t.id, kind: "relates_to", relationType: relation.predicate });
      else
        add({
          targetSourceId: `${t.provider}:${t.externalId}`,
          kind: "relates_to",
          relationType: relation.predicate,
          external: { provider: t.provider, externalId: t.externalId },
        });
    }
  } else {
    for (const id of relationIdsOf(item)) add({ targetSourceId: id, kind: "relates_to", relationType: DEFAULT_RELATION_TYPE });
  }
  const parent = parentOf(item, app);
  if (parent !== null) add({ targetSourceId: parent, kind: "parent", relationType: "parent_of" });
  return [...links.values()];
}
