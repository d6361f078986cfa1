import type { JobKind } from "./catalog.js";
import type { JobHandler, JobHandlers } from "./worker.js";

/** The handlers of some job kinds: what a feature's jobs.ts builds from its services. */
export type JobHandlerSet<K extends JobKind> = { readonly [P in K]: JobHandler<P> };

type KeysOf<S> = S extends unknown ? keyof S : never;

/** Kinds that more than one of the sets handles. */
type Repeated<Sets extends readonly object[], Seen extends PropertyKey = never> = Sets extends readonly [infer Head, ...infer Rest extends readonly object[]]
  ? (keyof Head & Seen) | Repeated<Rest, Seen | keyof Head>
  : never;

/** Kinds of the catalog that none of the sets handles. */
type Missing<Sets extends readonly object[]> = Exclude<JobKind, KeysOf<Sets[number]>>;

/**
 * JobHandlers when the sets handle every kind of the catalog exactly once; otherwise a type
 * naming the kinds at fault, which a `JobHandlers` variable refuses at compile time.
 */
export type CombinedHandlers<Sets extends readonly object[]> = [Repeated<Sets>] extends [never]
  ? [Missing<Sets>] extends [never]
    ? JobHandlers
    : { readonly kindsWithoutHandler: Missing<Sets> }
  : { readonly kindsWithTwoHandlers: Repeated<Sets> };

/** Merges the features' handler sets into the worker's map; the types prove one handler per job kind. */
export function combineJobHandlers<Sets extends ReadonlyArray<Partial<JobHandlers>>>(...sets: Sets): CombinedHandlers<Sets> {
  const merged: Partial<Record<JobKind, unknown>> = {};
  for (const set of sets) Object.assign(merged, set);
  // The signature proved every kind present once; the object built here is that map.
  return merged as unknown as CombinedHandlers<Sets>;
}
