import { Type } from "@sinclair/typebox";

/**
 * Request and response schemas of the graph area. Database names have no charset restriction
 * here (spec); collection names are checked by the service so the message can name the rule.
 */
const database = Type.String({ minLength: 1, maxLength: 128 });
const collection = Type.String({ maxLength: 256 });

export const GraphDatabaseBody = Type.Object({ database });
export const GraphDatabaseQuery = Type.Object({ database });
export const GraphCollectionBody = Type.Object({ database, collection });

export const GraphQueryBody = Type.Object({
  database,
  collection,
  query: Type.String({ minLength: 1 }),
  params: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
});

const success = Type.Literal(true);

export const CreatedGraphDatabase = Type.Object({ success, database: Type.String(), status: Type.Literal("ready") });
export const GraphQueryResult = Type.Object({ success, data: Type.Array(Type.Record(Type.String(), Type.Unknown())) });
export const GraphCollectionList = Type.Object({ success, database: Type.String(), collections: Type.Array(Type.String()) });
export const DroppedGraphCollection = Type.Object({
  success,
  database: Type.String(),
  collection: Type.String(),
  dropped: Type.Boolean(),
});
export const DeletedGraphDatabase = Type.Object({
  success,
  database: Type.String(),
  deleted: Type.Boolean(),
  deleted_collections: Type.Array(Type.String()),
});
