import { join } from "node:path";
import { createConnectors, type Connectors } from "../features/connectors/index.js";
import { GraphContextProvider } from "../features/context-graph/index.js";
import { purgeDatabaseGraph } from "../features/context-graph/graph-write-store.js";
import { RelationsService } from "../features/context-graph/relations-service.js";
import { SubgraphService } from "../features/context-graph/subgraph-service.js";
import { CollectionDeletion } from "../features/databases/collection-deletion.js";
import { DatabasePurge, type DatabasePurger } from "../features/databases/purge.js";
import { DatabaseStats } from "../features/databases/stats.js";
import { DatabaseStore } from "../features/databases/store.js";
import { QueryLog } from "../features/feedback/query-log.js";
import { FeedbackService } from "../features/feedback/service.js";
import { GraphAreaService } from "../features/graph-collections/service.js";
import { OrgService } from "../features/organizations/service.js";
import { fileUrlSecret } from "../features/items/file-url-secret.js";
import { inSystemScope } from "../platform/store/row-scope.js";
import { InspectService } from "../features/items/inspect-service.js";
import { ListService } from "../features/items/list-service.js";
import { StatusService } from "../features/items/status-service.js";
import { ItemStore } from "../features/items/store.js";
import { Bm25Retriever } from "../features/search/bm25-retriever.js";
import { CorpusRetriever } from "../features/search/corpus-retriever.js";
import { graphProviderOf } from "../features/search/graph-provider.js";
import { QueryService } from "../features/search/service.js";
import { createQueryModels } from "../features/search/query-models.js";
import { createReranker, type Reranker } from "../engines/ranking/create-reranker.js";
import { TermIndexes } from "../features/search/term-indexes.js";
import type { Config } from "../platform/config.js";
import type { ContextFeatures } from "./context-features.js";
import type { Platform } from "./platform.js";

/** The features around the context: organizations, search, feedback, graphs, connectors, stats, purge. */
export interface Features {
  readonly orgs: OrgService;
  readonly queryLog: QueryLog;
  readonly feedback: FeedbackService;
  readonly graphArea: GraphAreaService;
  readonly stats: DatabaseStats;
  readonly connectors: Connectors;
  readonly databasePurge: DatabasePurge;
  readonly collectionDeletion: CollectionDeletion;
  readonly subgraphs: SubgraphService;
  readonly relations: RelationsService;
  readonly graphContext: GraphContextProvider;
  readonly termIndexes: TermIndexes;
  readonly query: QueryService;
  /** Thinking mode's reranker (RERANK_*), closed at shutdown; null when none is configured. */
  readonly reranker: Reranker | null;
  readonly list: ListService;
  readonly inspect: InspectService;
  readonly statuses: StatusService;
}

/** Organizations (with the bootstrap keys) and the services built on the context features. */
export async function buildFeatures(
  config: Config,
  { logger, metrics, store, secrets, queue, embedder, extraction, now }: Platform,
  context: ContextFeatures,
): Promise<Features> {
  const { databases, blobs, vectors, ingest, edit } = context;
  const orgs = new OrgService(store);
  await inSystemScope(() => orgs.bootstrap(config.bootstrapApiKeys));
  // Feedback may reach another process than its query did: it waits for that one's flush (and a second more).
  const peers = config.processes > 1 || store.backend === "postgres";
  const queryLog = new QueryLog(store, logger, { flushDelayMs: config.queryLogFlushMs, peerFlushWaitMs: peers ? config.queryLogFlushMs + 1_000 : 0 });
  const feedback = new FeedbackService(store, databases, queryLog, { perMinute: config.feedbackPerMinute });
  const graphArea = new GraphAreaService(store, databases, {
    maxRows: config.graphMaxRows,
    timeoutMs: config.graphQueryTimeoutMs,
    maxListLength: config.graphMaxListLength,
    maxStringLength: config.graphMaxStringLength,
    maxRegexWork: config.graphMaxRegexWork,
    workers: config.graphWorkers,
    workerMemoryMb: config.graphWorkerMemoryMb,
    maxConcurrentPerOrg: config.graphMaxConcurrentPerOrg,
    onWorkerCrash: (err) => logger.error({ err }, "a graph query worker crashed; it is replaced on next use"),
  });
  const dimensions = (): number => (config.embedding.provider === "local" ? 512 : (config.embedding.dimensions ?? 0));
  const stats = new DatabaseStats(new DatabaseStore(store.db), dimensions, [
    (database) => new ItemStore(store.db).countByCorpus(database),
    (row) => graphArea.counts(row),
  ]);
  const contextPurger: DatabasePurger = async (tx, database) => {
    await new ItemStore(tx).deleteDatabase(database);
    await blobs.deleteDatabase(tx, database);
    await vectors.dropDatabase(database.id);
    await purgeDatabaseGraph(tx, { orgId: database.org_id, databaseId: database.id });
  };
  const databasePurge = new DatabasePurge(store, [
    contextPurger,
    (tx, row) => feedback.purgeDatabase(tx, row.id),
    (tx, row) => graphArea.purgeDatabase(tx, row),
  ]);
  const graphContext = new GraphContextProvider(store, extraction);
  const termIndexes = new TermIndexes(store, logger, { maxPostings: config.searchIndexMaxPostings, fileDir: join(config.dataDir, "indexes") });
  const retriever = new CorpusRetriever(store, new Bm25Retriever(store, termIndexes), vectors);
  const reranker = config.queryModels.rerank && (await createReranker(config.queryModels.rerank, config.queryModels.timeoutMs));
  return {
    orgs,
    queryLog,
    feedback,
    graphArea,
    stats,
    connectors: createConnectors(config, {
      store,
      databases,
      ingest,
      edit,
      queue,
      secrets: secrets.connectors,
      onSyncResult: (provider, outcome) => metrics.connectorSync(provider, outcome),
    }),
    databasePurge,
    collectionDeletion: new CollectionDeletion(databases, [(at) => edit.deleteCollection(at), (at) => graphArea.purgeCollection(at)]),
    subgraphs: new SubgraphService(store),
    relations: new RelationsService(store),
    graphContext,
    termIndexes,
    reranker,
    query: new QueryService(
      store,
      databases,
      embedder,
      retriever,
      graphProviderOf(graphContext),
      queryLog,
      now,
      createQueryModels(config.chatModel, reranker, config.queryModels, logger, (step, outcome) => metrics.queryModelCall(step, outcome)),
    ),
    list: new ListService(store, databases, now),
    inspect: new InspectService(store, blobs, await inSystemScope(() => fileUrlSecret(config.fileUrlSecret, store, secrets.fileUrl)), now),
    statuses: new StatusService(store),
  };
}
