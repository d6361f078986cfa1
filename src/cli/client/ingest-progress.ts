// How `ingest` shows its progress on stderr: two bars (upload, indexing) when stderr is a
// terminal, a line per event when it is not (logs, CI), nothing with --json (one document at the end).
import { MultiBar, Presets, type SingleBar } from "cli-progress";

export interface IngestProgress {
  /** Items (files and JSONL records) still to upload. */
  plan(items: number): void;
  /** Items sent, whatever the answer; `event` is a line for the line reporter. */
  uploaded(count: number, event: string): void;
  /** Items the service queued for indexing, so the indexing bar knows what to wait for. */
  queued(count: number): void;
  /** Items that reached a terminal indexing state. */
  indexed(count: number, event: string): void;
  stop(): void;
}

const FORMAT = "{label} |{bar}| {percentage}% | {value}/{total} {unit}";

function barReporter(stream: NodeJS.WriteStream): IngestProgress {
  const bars = new MultiBar({ format: FORMAT, stream, hideCursor: true, clearOnComplete: false, stopOnComplete: false, fps: 10 }, Presets.shades_classic);
  let upload: SingleBar | null = null;
  let indexing: SingleBar | null = null;
  let queuedTotal = 0;
  return {
    plan(items) {
      upload = bars.create(items, 0, { label: "upload  ", unit: "items" });
      indexing = bars.create(0, 0, { label: "indexing", unit: "items" });
    },
    uploaded(count) {
      upload?.increment(count);
    },
    queued(count) {
      queuedTotal += count;
      indexing?.setTotal(queuedTotal);
    },
    indexed(count) {
      indexing?.increment(count);
    },
    stop() {
      bars.stop();
    },
  };
}

function lineReporter(stream: NodeJS.WritableStream): IngestProgress {
  let planned = 0;
  let sent = 0;
  let queuedTotal = 0;
  let done = 0;
  return {
    plan(items) {
      planned = items;
      stream.write(`upload: ${items} item(s)\n`);
    },
    uploaded(count, event) {
      sent += count;
      stream.write(`upload ${sent}/${planned}: ${event}\n`);
    },
    queued(count) {
      queuedTotal += count;
    },
    indexed(count, event) {
      done += count;
      stream.write(`indexing ${done}/${queuedTotal}: ${event}\n`);
    },
    stop() {
      // Every line is already written.
    },
  };
}

const silent: IngestProgress = {
  plan: () => undefined,
  uploaded: () => undefined,
  queued: () => undefined,
  indexed: () => undefined,
  stop: () => undefined,
};

export function progressFor(json: boolean, stream: NodeJS.WriteStream = process.stderr): IngestProgress {
  if (json) return silent;
  return stream.isTTY ? barReporter(stream) : lineReporter(stream);
}
