import type { Embedder } from "./embedder.js";
import { createLocalEmbedder } from "./local-embedder.js";
import type { LocalEmbedderConfig } from "./local-embedder.js";
import { createOpenAIEmbedder } from "./openai-embedder.js";
import { createThreadedOpenAIEmbedder, threadable } from "./openai-thread.js";
import type { OpenAIEmbedderConfig } from "./openai-embedder.js";
import { createTransformersEmbedder } from "./transformers-embedder.js";
import type { TransformersEmbedderConfig } from "./transformers-embedder.js";

export type EmbedderConfig =
  ({ provider: "local" } & LocalEmbedderConfig) | ({ provider: "openai" } & OpenAIEmbedderConfig) | ({ provider: "transformers" } & TransformersEmbedderConfig);

/** Builds the configured provider; resolves once it is ready to embed (models loaded). */
export async function createEmbedder(config: EmbedderConfig): Promise<Embedder> {
  switch (config.provider) {
    case "local":
      return createLocalEmbedder(config);
    case "openai":
      // In a thread of its own unless a test injected functions (they cannot cross to it).
      return threadable(config) ? createThreadedOpenAIEmbedder(config) : createOpenAIEmbedder(config);
    case "transformers":
      return createTransformersEmbedder(config);
  }
}
