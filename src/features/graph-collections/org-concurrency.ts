import { AppError } from "../../platform/errors/app-error.js";

/**
 * Caps the graph queries one organization has in flight in this process. Over the cap the request
 * is answered at once with 429 RATE_LIMITED and Retry-After (retryable per the spec) instead of
 * queueing without bound behind the organization's own slow queries.
 */
export class OrgConcurrencyLimit {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  async run<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(orgId) ?? 0;
    if (running >= this.max) {
      throw new AppError("RATE_LIMITED", `Too many graph queries in flight for this organization (at most ${this.max} at once); retry in 1 second`, {
        "Retry-After": "1",
      });
    }
    this.inFlight.set(orgId, running + 1);
    try {
      return await fn();
    } finally {
      const left = (this.inFlight.get(orgId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(orgId);
      else this.inFlight.set(orgId, left);
    }
  }
}
