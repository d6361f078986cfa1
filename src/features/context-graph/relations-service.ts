import type { Store } from "../../platform/store/db.js";
import { traversalScopeOf, type GraphRead } from "./request-scope.js";
import { readTriplets, toWire } from "./graph-read-store.js";
import type { WireTriplet } from "./wire.js";

export interface RelationsRequest extends GraphRead {
  /** One item's public id; undefined reads the whole collection. */
  readonly id: string | undefined;
  readonly limit: number;
  /** The `next_cursor` of the previous page; 0 (or undefined) starts at the beginning. */
  readonly cursor: number | undefined;
}

export interface RelationsPage {
  success: true;
  message: string;
  relations: WireTriplet[];
  is_truncated: boolean;
  /** Opaque; null on the last page. */
  next_cursor: number | null;
}

export const DEFAULT_RELATIONS_LIMIT = 100;
export const MAX_RELATIONS_LIMIT = 1000;

/** GET /context/relations: entity relation triplets of one item or a whole collection, paged. */
export class RelationsService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async relations(req: RelationsRequest): Promise<RelationsPage> {
    const s = traversalScopeOf(this.store.backend, req, this.now());
    const rows = await readTriplets(this.store.reader, s, req.id === undefined ? {} : { sourceId: req.id }, req.cursor ?? 0, req.limit + 1);
    const page = rows.slice(0, req.limit);
    const more = rows.length > req.limit;
    const last = page[page.length - 1];
    return {
      success: true,
      message: `${page.length} relation group(s)`,
      relations: page.map(toWire),
      is_truncated: more,
      next_cursor: more && last !== undefined ? last.key : null,
    };
  }
}
