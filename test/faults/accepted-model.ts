import { sleep } from "./fault-kit.js";

/**
 * What the service accepted, as a client saw it: ids answered 2xx are accepted and must come
 * out terminal, exactly once; ids whose request got no answer (the process died under it) are
 * uncertain: absent, or present once and terminal. Anything else stored is a phantom.
 */
export class AcceptedModel {
  readonly accepted = new Set<string>();
  readonly uncertain = new Set<string>();
  requests = 0;
  refused = 0;

  /** Sends a request through `send`; the ids are accepted on 2xx, uncertain when no answer came. */
  async offer(ids: readonly string[], send: () => Promise<Response>): Promise<number | null> {
    this.requests++;
    let res: Response;
    try {
      res = await send();
      await res.arrayBuffer();
    } catch (err) {
      // Refused: nothing reached a process (it is down), so nothing was offered. Reset: the
      // process died with the request in flight, so it may have stored it or not.
      if (connectionRefused(err)) {
        this.requests--;
        await sleep(100);
        return null;
      }
      for (const id of ids) this.uncertain.add(id);
      return null;
    }
    if (res.status >= 200 && res.status < 300) for (const id of ids) this.accepted.add(id);
    else if (res.status >= 500) {
      for (const id of ids) this.uncertain.add(id);
      this.refused++;
    } else throw new Error(`a request the service should accept was answered ${res.status}`);
    return res.status;
  }

  /** The ids that may be stored. */
  allowed(): Set<string> {
    return new Set([...this.accepted, ...this.uncertain]);
  }
}

/** Runs `step` again and again until `stop()` is called; `stop` resolves once the loop has ended. */
export function loop(step: () => Promise<void>, pauseMs: () => number): { stop(): Promise<void> } {
  let running = true;
  const done = (async () => {
    while (running) {
      await step();
      await sleep(pauseMs());
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
    },
  };
}

function connectionRefused(err: unknown): boolean {
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  return cause?.code === "ECONNREFUSED";
}
