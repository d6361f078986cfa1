import type { Embedder } from "./embedder.js";
import { createLocalEmbedder } from "./local-embedder.js";
import type { LocalEmbedderConfig } from "./local-embedder.js";
import { createOpenAIEmbedder } from "./openai-embedder.js";
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
      return createOpenAIEmbedder(config);
    case "transformers":
      return createTransformersEmbedder(config);
  }
}
