import type { TestContext } from "node:test";
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from "./fake-embeddings-server.js";
import { createReadyDatabase, startTestApp, type TestApp } from "./harness.js";

/**
 * A service embedding through a local fake endpoint, with a ready database `name`, whose job
 * workers are stopped: the test runs the jobs it wants by hand (pipeline.process), as a worker would.
 */
export async function appRunningJobsByHand(t: TestContext, name: string): Promise<{ app: TestApp; embeddings: FakeEmbeddingsServer }> {
  const embeddings = await startFakeEmbeddingsServer(16);
  t.after(() => embeddings.close());
  const app = await startTestApp({
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_BASE_URL: embeddings.baseUrl,
    EMBEDDING_MODEL: "fake",
    EMBEDDING_DIMENSIONS: "16",
  });
  t.after(() => app.close());
  await createReadyDatabase(app, name);
  await app.app.worker.stop(10_000);
  return { app, embeddings };
}
