import { useState } from "preact/hooks";
import { ErrorBanner } from "../ui/error-banner.js";
import { refusalOf } from "../ui/file-types.js";
import { formatBytes, StatusBadge } from "../ui/format.js";
import { hashWithId } from "../ui/hash-route.js";
import { isFinal, useIndexingTracker, type Tracked } from "../ui/indexing-tracker.js";
import { NeedsDatabase, Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { session } from "../ui/session.js";
import { Table } from "../ui/table.js";
import { uploadFile } from "../ui/upload-request.js";
import { FilePicker } from "./upload-files.js";
import { parseRecords, RecordsForm, type RecordKind } from "./upload-records.js";

/** A record's title when it has a text one, else the id the service gave it. */
function recordLabel(record: Record<string, unknown> | undefined, id: string): string {
  const title = record?.title;
  return typeof title === "string" && title !== "" ? title : id;
}

let sequence = 0;
const nextKey = (): string => `t${++sequence}`;

/** Upload files with per-file progress, send app items or memories, then watch each one get indexed. */
export function UploadScreen(props: ScreenProps) {
  const { api, database, collection } = props;
  const tracker = useIndexingTracker(api, database, collection);
  const [tab, setTab] = useState<"files" | "records">("files");
  const [formError, setFormError] = useState<unknown>(null);
  const [refused, setRefused] = useState<readonly string[]>([]);

  const sendFiles = (picked: File[]) => {
    if (database === null) return;
    // Unsupported files are refused here, before anything is sent; the others go on.
    const reasons = picked.map(refusalOf);
    setRefused(reasons.filter((r): r is string => r !== null));
    const files = picked.filter((_, i) => reasons[i] === null);
    if (files.length === 0) return;
    const apiKey = session.apiKey() ?? "";
    const rows: Tracked[] = files.map((file) => ({
      key: nextKey(),
      label: file.name,
      corpus: "knowledge",
      sizeBytes: file.size,
      progress: 0,
      id: null,
      status: "uploading",
      errorCode: null,
      message: null,
    }));
    tracker.add(rows);
    // One request per file, all at once: each has its own progress and its own answer.
    files.forEach((file, i) => {
      const key = rows[i]?.key ?? "";
      uploadFile({
        baseUrl: api.baseUrl,
        apiKey,
        database,
        collection,
        file,
        onProgress: (sent, total) => tracker.update(key, { progress: total > 0 ? sent / total : 1 }),
      }).then(
        (answer) => {
          const result = answer.results[0];
          if (!result) return tracker.update(key, { status: "errored", errorCode: "NO_RESULT", message: "the service returned no result for this file" });
          if (result.status === "failed")
            return tracker.update(key, { id: result.id, status: "errored", errorCode: result.error_code ?? "FAILED", message: result.message ?? "" });
          tracker.update(key, { id: result.id, status: result.status, progress: 1 });
        },
        (error: unknown) => tracker.fail(key, error),
      );
    });
  };

  const sendRecords = async (kind: RecordKind, text: string) => {
    if (database === null) return;
    setFormError(null);
    let records: Record<string, unknown>[];
    try {
      records = parseRecords(text);
    } catch (error) {
      setFormError(error);
      return;
    }
    const corpus = kind === "memories" ? "memory" : "knowledge";
    const body = { database, type: corpus, [kind]: records, ...(collection !== null ? { collection } : {}) } as const;
    try {
      const answer = await api.call(api.raw.POST("/context/ingest", { body }));
      tracker.add(
        answer.results.map((r, i) => ({
          key: nextKey(),
          label: recordLabel(records[i], r.id),
          corpus,
          progress: 1,
          id: r.id,
          status: r.status === "failed" ? "errored" : r.status,
          errorCode: r.status === "failed" ? (r.error_code ?? "FAILED") : null,
          message: r.status === "failed" ? (r.message ?? "") : null,
        })),
      );
    } catch (error) {
      setFormError(error);
    }
  };

  const waiting = tracker.items.filter((t) => !isFinal(t.status)).length;
  return (
    <Page
      title="Upload"
      subtitle={
        database === null ? undefined : (
          <>
            Into <b class="mono">{database}</b>
            {collection !== null ? (
              <>
                {" "}
                / <b class="mono">{collection}</b>
              </>
            ) : null}
          </>
        )
      }
      testId="screen-upload"
    >
      {database === null ? (
        <NeedsDatabase />
      ) : (
        <>
          <div class="tabs">
            <button type="button" class={tab === "files" ? "active" : undefined} data-testid="tab-files" onClick={() => setTab("files")}>
              Files
            </button>
            <button type="button" class={tab === "records" ? "active" : undefined} data-testid="tab-records" onClick={() => setTab("records")}>
              App items and memories
            </button>
          </div>
          <Panel>
            {tab === "files" ? <FilePicker onFiles={sendFiles} disabled={false} /> : <RecordsForm onSubmit={sendRecords} disabled={false} />}
            {tab === "files" && refused.length > 0 ? (
              <div class="error-banner stacked" role="alert" data-testid="upload-refused">
                {refused.map((reason) => (
                  <p key={reason}>{reason}</p>
                ))}
              </div>
            ) : null}
            <ErrorBanner error={formError} testId="records-error" />
          </Panel>
          <Panel
            title={waiting > 0 ? `Indexing (${waiting} in progress)` : "Indexing"}
            actions={
              <button type="button" class="link" onClick={tracker.clear} disabled={tracker.items.length === waiting}>
                Clear finished
              </button>
            }
          >
            <ErrorBanner error={tracker.pollError} />
            <TrackerTable items={tracker.items} />
          </Panel>
        </>
      )}
    </Page>
  );
}

function TrackerTable(props: { items: readonly Tracked[] }) {
  return (
    <Table
      testId="upload-table"
      rows={props.items}
      rowKey={(t) => t.key}
      empty="Nothing sent yet in this visit."
      columns={[
        { label: "Name", cell: (t) => <span data-testid="upload-name">{t.label}</span> },
        { label: "Size", cell: (t) => formatBytes(t.sizeBytes), numeric: true },
        {
          label: "Upload",
          cell: (t) => (
            <div class="progress" data-testid="upload-progress" data-progress={Math.round(t.progress * 100)} title={`${Math.round(t.progress * 100)}%`}>
              <div style={{ width: `${Math.round(t.progress * 100)}%` }} />
            </div>
          ),
        },
        {
          label: "Item",
          cell: (t) =>
            t.id !== null ? (
              <a href={hashWithId("/items", t.id)} class="mono">
                {t.id}
              </a>
            ) : null,
        },
        {
          label: "Indexing",
          cell: (t) => (
            <div class="status-cell">
              <StatusBadge status={t.status} testId="upload-status" />
              {t.errorCode !== null ? (
                <div class="error-inline">
                  <span class="error-code" data-testid="upload-error-code">
                    {t.errorCode}
                  </span>{" "}
                  <span data-testid="upload-error-message">{t.message}</span>
                </div>
              ) : null}
            </div>
          ),
        },
      ]}
    />
  );
}
