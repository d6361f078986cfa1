export interface ShutdownStep {
  readonly name: string;
  /** Gets the time left of the budget (ms). */
  run(remainingMs: number): Promise<unknown>;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface ShutdownOutcome {
  /** Steps that did not finish within the budget, in order (the one running, then those never started). */
  readonly abandoned: string[];
}

/**
 * Runs the shutdown steps in order under one deadline for the whole sequence. When it passes,
 * the running step and every later one are abandoned (logged), and this resolves at once so
 * that the process can exit. A failing step is logged and the sequence goes on.
 */
export async function shutdownWithin(budgetMs: number, steps: readonly ShutdownStep[], log: Logger, now: () => number = Date.now): Promise<ShutdownOutcome> {
  const deadline = now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), budgetMs);
  });
  try {
    for (const [i, step] of steps.entries()) {
      const remaining = deadline - now();
      const outcome =
        remaining <= 0
          ? "expired"
          : await Promise.race([
              step.run(remaining).then(
                () => "done" as const,
                (err: unknown) => {
                  log.warn({ err, step: step.name }, "shutdown step failed");
                  return "done" as const;
                },
              ),
              expired,
            ]);
      if (outcome === "expired") {
        const abandoned = steps.slice(i).map((s) => s.name);
        log.warn({ budgetMs, abandoned }, "shutdown budget (SHUTDOWN_TIMEOUT_MS) spent: abandoning the rest");
        return { abandoned };
      }
    }
    return { abandoned: [] };
  } finally {
    clearTimeout(timer);
  }
}
