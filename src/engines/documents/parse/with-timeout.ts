export class ParseTimeoutError extends Error {
  constructor(label: string, ms: number) {
    super(`${label} did not finish within ${ms} ms`);
    this.name = "ParseTimeoutError";
  }
}

/**
 * Races a parser against a timer. This bounds parsers that loop asynchronously (pdf.js, mammoth's
 * zip reader both yield between steps); a parser stuck in a synchronous loop would still block the
 * thread: a ParserPool (a worker thread terminated at the deadline) bounds those too.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParseTimeoutError(label, ms)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
