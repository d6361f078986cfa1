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
  /** Every answer (or its absence, status null), with when the request started and ended. */
  readonly answers: Array<{ readonly startedAt: number; readonly endedAt: number; readonly status: number | null; readonly code: string }> = [];

  /** Sends a request through `send`; the ids are accepted on 2xx, uncertain when no answer came. */
  async offer(ids: readonly string[], send: () => Promise<Response>): Promise<number | null> {
    this.requests++;
    const startedAt = Date.now();
    let res: Response;
    let code = "";
    try {
      res = await send();
      const text = await res.text();
      if (res.status >= 400) code = errorCode(text);
      this.answers.push({ startedAt, endedAt: Date.now(), status: res.status, code });
    } catch (err) {
      this.answers.push({ startedAt, endedAt: Date.now(), status: null, code: err instanceof Error ? err.message : String(err) });
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

  /** Answers that are errors of the service itself (5xx other than 503 SERVICE_UNAVAILABLE). */
  serverErrors(): string[] {
    return this.answers
      .filter((a) => a.status !== null && a.status >= 500 && !(a.status === 503 && a.code === "SERVICE_UNAVAILABLE"))
      .map((a) => `${a.status} ${a.code}`);
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

function errorCode(text: string): string {
  try {
    // The envelope's error, or the graph area's legacy {detail} shape.
    const body = JSON.parse(text) as { error?: { code?: unknown }; detail?: { error_code?: unknown } };
    const code = body.error?.code ?? body.detail?.error_code;
    return typeof code === "string" ? code : "";
  } catch {
    // Not the envelope: the answer's text is what the test reports.
    return text.slice(0, 200);
  }
}

function connectionRefused(err: unknown): boolean {
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  return cause?.code === "ECONNREFUSED";
}
