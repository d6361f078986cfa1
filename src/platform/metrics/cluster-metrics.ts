import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";

/**
 * /metrics with PROCESSES > 1. A scrape reaches one service process; it asks the primary, which
 * asks every service process for its instruments as JSON (each samples its gauges first) and
 * hands the parts back. The scraped process merges them by each instrument's aggregator
 * (prom-client's: counters and histograms summed, queue gauges the maximum, see Metrics) and
 * renders one exposition for the whole deployment.
 */

/** How long the primary waits for the processes' parts; one that has not answered by then is left out. */
const COLLECT_TIMEOUT_MS = 3_000;
/** How long a scraped process waits for the primary's answer. */
const REQUEST_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 2_000;

/** One process's instruments: the array `Registry.getMetricsAsJSON()` returns. */
type Part = readonly object[];

type Message =
  | { readonly type: "context-store:metrics-request"; readonly requestId: number }
  | { readonly type: "context-store:metrics-collect"; readonly collectId: number }
  | { readonly type: "context-store:metrics-part"; readonly collectId: number; readonly part: Part }
  | { readonly type: "context-store:metrics-reply"; readonly requestId: number; readonly parts: readonly Part[] };

function isMessage(value: unknown): value is Message {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    (value as { type: string }).type.startsWith("context-store:metrics-")
  );
}

/**
 * Service process side: answers the primary's collection with `snapshot()`, and returns the
 * function that renders the whole deployment's metrics for a scrape.
 */
export function joinClusterMetrics(snapshot: () => Promise<Part>): () => Promise<string> {
  const pending = new Map<number, (parts: readonly Part[]) => void>();
  let nextRequest = 1;
  process.on("message", (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "context-store:metrics-collect") {
      snapshot().then(
        (part) => process.send?.({ type: "context-store:metrics-part", collectId: message.collectId, part } satisfies Message),
        // Left out of this scrape; the primary's wait ends with the others' parts.
        () => undefined,
      );
    } else if (message.type === "context-store:metrics-reply") {
      pending.get(message.requestId)?.(message.parts);
      pending.delete(message.requestId);
    }
  });
  return async () => {
    const requestId = nextRequest++;
    const parts = await new Promise<readonly Part[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(requestId);
        reject(new Error("the primary process did not answer the metrics collection"));
      }, REQUEST_TIMEOUT_MS);
      pending.set(requestId, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      process.send?.({ type: "context-store:metrics-request", requestId } satisfies Message);
    });
    return AggregatorRegistry.aggregate([...parts]).metrics();
  };
}

/**
 * Primary side: relays a service process's request to every connected process and answers it
 * with the parts received within COLLECT_TIMEOUT_MS (a process starting again after a crash may
 * not answer; its figures started again from zero anyway).
 */
export function relayClusterMetrics(): void {
  let nextCollect = 1;
  const collections = new Map<number, { parts: Part[]; waiting: number; finish(): void }>();
  cluster.on("message", (from, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === "context-store:metrics-part") {
      const collection = collections.get(message.collectId);
      if (collection === undefined) return;
      collection.parts.push(message.part);
      collection.waiting -= 1;
      if (collection.waiting === 0) collection.finish();
      return;
    }
    if (message.type !== "context-store:metrics-request") return;
    const collectId = nextCollect++;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined && w.isConnected());
    const parts: Part[] = [];
    const finish = (): void => {
      clearTimeout(timer);
      collections.delete(collectId);
      if (from.isConnected()) from.send({ type: "context-store:metrics-reply", requestId: message.requestId, parts } satisfies Message);
    };
    const timer = setTimeout(finish, COLLECT_TIMEOUT_MS);
    collections.set(collectId, { parts, waiting: workers.length, finish });
    for (const worker of workers) worker?.send({ type: "context-store:metrics-collect", collectId } satisfies Message);
  });
}
