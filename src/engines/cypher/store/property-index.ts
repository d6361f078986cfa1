import { valueKey } from "../values/compare.js";
import type { PropertyValue } from "../values/value.js";

/** Equality index: property value (by equivalence key) -> ids, in insertion order. */
export class PropertyIndex {
  private readonly buckets = new Map<string, Set<number>>();

  add(id: number, value: PropertyValue): void {
    const key = valueKey(value);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new Set();
      this.buckets.set(key, bucket);
    }
    bucket.add(id);
  }

  remove(id: number, value: PropertyValue): void {
    const key = valueKey(value);
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return;
    bucket.delete(id);
    if (bucket.size === 0) this.buckets.delete(key);
  }

  lookup(value: PropertyValue): Iterable<number> {
    return this.buckets.get(valueKey(value)) ?? [];
  }
}

export function indexKey(token: string, property: string): string {
  return `${token}\u0000${property}`;
}
