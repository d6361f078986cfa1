import { Worker, type ResourceLimits } from "node:worker_threads";

/**
 * A worker thread running the module `name` next to the caller (`base` is the caller's
 * import.meta.url), with optional heap and stack limits. After `tsc` the worker is the emitted .js
 * file. Under tsx (tests, benches) it is the .ts source: tsx's loader is not active inside worker
 * threads on Node 20, so a small bootstrap registers tsx's ESM hooks in the worker and then
 * imports the source.
 */
export function spawnModuleWorker(base: string, name: string, workerData?: unknown, resourceLimits?: ResourceLimits): Worker {
  const options = { workerData, ...(resourceLimits ? { resourceLimits } : {}) };
  if (!base.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, base), options);
  const source = new URL(`./${name}.ts`, base).href;
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, ...options });
}
