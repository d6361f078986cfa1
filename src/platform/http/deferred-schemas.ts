import SerializerSelector from "@fastify/fast-json-stringify-compiler";
import type { Ajv, ValidateFunction } from "ajv";

/**
 * Route schemas compiled when first used, not when the route is registered. Fastify compiles a
 * validator per request part and a serializer per response status of every route at start:
 * measured on 2026-11-29, about 1.1 s of a process's start (fast-json-stringify 0.8 s, Ajv the
 * rest), for a process that may serve a handful of routes (a test's, a CLI's). The service runs
 * `compileAll` once it listens (src/main.ts), a schema per turn of the event loop, so a route's first
 * request rarely pays; a test compiles every schema the same way (test/api/openapi-contract).
 */
export class DeferredSchemas {
  private readonly pending = new Set<() => unknown>();

  /** Not yet compiled. */
  get size(): number {
    return this.pending.size;
  }

  /** A validator compiled on its first call; Ajv's `errors` are passed on as Fastify reads them. */
  validator(ajv: Ajv, schema: object): ValidateFunction {
    const compiled = this.defer(() => ajv.compile(schema));
    const validate = ((data: unknown): boolean => {
      const fn = compiled();
      const ok = fn(data);
      validate.errors = fn.errors;
      return ok;
    }) as ValidateFunction;
    return validate;
  }

  /** Fastify's default serializer factory (fast-json-stringify), compiling each response schema on first use. */
  serializerFactory(): SerializerFactory {
    const build = SerializerSelector();
    return (externalSchemas, options) => {
      const compile = build(externalSchemas, options);
      return (route) => {
        const compiled = this.defer(() => compile(route));
        return (data) => compiled()(data);
      };
    };
  }

  /** Compiles whatever is still waiting, one schema per turn of the event loop; throws a schema's error. */
  async compileAll(signal?: AbortSignal): Promise<void> {
    for (const compile of [...this.pending]) {
      if (signal?.aborted === true) return;
      compile();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private defer<T>(compile: () => T): () => T {
    let compiled: T | undefined;
    const get = (): T => {
      if (compiled === undefined) {
        compiled = compile();
        this.pending.delete(get);
      }
      return compiled;
    };
    this.pending.add(get);
    return get;
  }
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;
