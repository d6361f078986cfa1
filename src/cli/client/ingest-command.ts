// `context-store ingest <paths...>`: uploads files, folders, globs and JSONL files, waits for
// indexing (unless --no-wait) and prints a summary; exit 1 when any item failed.
import type { Command } from "commander";
import { clientContext, PartialFailure, oneOf, positiveInteger, scopeOf, withConnectionOptions, type OutputOf } from "./client-context.js";
import { progressFor } from "./ingest-progress.js";
import { collectSources, type JsonlType } from "./ingest-sources.js";
import { uploadSources, type IngestRecord, type RecordStatus } from "./ingest-upload.js";
import { IndexingWatch } from "./ingest-wait.js";

interface IngestOptions {
  type?: JsonlType;
  wait: boolean;
  concurrency: number;
  timeout: number;
  allowDuplicates: boolean;
}

const FAILURES: ReadonlySet<RecordStatus> = new Set(["failed", "errored", "pending"]);

function countsOf(records: readonly IngestRecord[]): Record<RecordStatus, number> {
  const counts: Record<RecordStatus, number> = { completed: 0, queued: 0, duplicate: 0, failed: 0, errored: 0, pending: 0 };
  for (const r of records) counts[r.status] += 1;
  return counts;
}

function summaryText(records: readonly IngestRecord[], skipped: readonly string[]): string {
  const counts = countsOf(records);
  const parts = (Object.entries(counts) as Array<[RecordStatus, number]>).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`);
  const lines = [`${records.length} item(s): ${parts.join(", ")}`];
  if (skipped.length > 0) lines.push(`skipped ${skipped.length} file(s) of unsupported types`);
  for (const r of records.filter((r) => r.status === "duplicate")) lines.push(`duplicate ${r.file}: already stored as ${r.id ?? "?"}`);
  for (const r of records.filter((r) => FAILURES.has(r.status))) {
    lines.push(`${r.status} ${r.file}${r.id ? ` (${r.id})` : ""}: ${r.error ? `${r.error.code}: ${r.error.message}` : "no answer"}`);
  }
  return lines.join("\n");
}

export function registerIngestCommand(program: Command, outputOf: OutputOf): void {
  withConnectionOptions(
    program
      .command("ingest")
      .description("upload files, folders (recursive, dotfiles skipped), globs and JSONL files of app items or memories, then wait for indexing")
      .argument("<paths...>", "files, folders or quoted globs")
      .option(
        "--type <type>",
        "type of the JSONL files: knowledge (app items) or memory; default: memory when the first object has text or user_assistant_pairs",
        oneOf("--type", ["knowledge", "memory"] as const),
      )
      .option("--no-wait", "do not wait for indexing")
      .option("--concurrency <n>", "uploads at once", positiveInteger("--concurrency"), 4)
      .option("--timeout <seconds>", "how long to wait for indexing", positiveInteger("--timeout"), 1800)
      .option("--allow-duplicates", "store a file again even when the same bytes are stored already", false),
  ).action(async (paths: string[], options: IngestOptions, command: Command) => {
    const { api, settings, output } = clientContext(command, outputOf);
    const scope = scopeOf(settings);
    // One cheap call first: a wrong key or an unknown database stops here, before any upload.
    await api.call(api.raw.GET("/databases/status", { params: { query: { database: scope.database } } }));
    const { sources, skipped } = await collectSources(paths, options.type ?? null);
    const progress = progressFor(output.json);
    const watch = new IndexingWatch(api, scope, progress);
    const deadline = Date.now() + options.timeout * 1000;
    let records: IngestRecord[];
    try {
      // Settled to a value at once, so a failed poll is not an unhandled rejection while uploads go on.
      const watching = options.wait
        ? watch.run(deadline).then(
            () => null,
            (error: unknown) => ({ error }),
          )
        : Promise.resolve(null);
      records = await uploadSources(sources, {
        api,
        scope,
        allowDuplicates: options.allowDuplicates,
        concurrency: options.concurrency,
        progress,
        onQueued: (queued) => watch.add(queued),
      }).finally(() => watch.finishUploads());
      const watchFailure = await watching;
      if (watchFailure !== null) throw watchFailure.error;
    } finally {
      progress.stop();
    }
    if (options.wait) {
      for (const r of records.filter((r) => r.status === "queued")) {
        r.status = "pending";
        r.error = { code: "TIMEOUT", message: `still indexing after ${options.timeout} s` };
      }
    }
    const counts = countsOf(records);
    output.emit(summaryText(records, skipped), { items: records, counts, skipped });
    const failed = records.filter((r) => FAILURES.has(r.status)).length;
    if (failed > 0) throw new PartialFailure("INGEST_INCOMPLETE", `${failed} of ${records.length} item(s) did not make it (see the summary)`);
  });
}
