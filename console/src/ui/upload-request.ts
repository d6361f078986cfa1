import { ApiError } from "../../../src/client/api-client.js";
import type { paths } from "../../../src/client/api-types.js";

type IngestAnswer = paths["/context/ingest"]["post"]["responses"]["202"]["content"]["application/json"]["data"];

export interface FileUpload {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly database: string;
  readonly collection: string | null;
  readonly file: File;
  /** Bytes sent so far of `total`, as the browser reports them. */
  readonly onProgress: (sent: number, total: number) => void;
}

/**
 * POST /context/ingest with one file, by XMLHttpRequest: the one call here not made through the
 * typed client, because fetch() reports no upload progress and the screen shows it per file.
 * The answer and errors are read as the client reads them: `data` of the envelope, or an ApiError
 * with the service's code and message.
 */
export function uploadFile(upload: FileUpload): Promise<IngestAnswer> {
  const form = new FormData();
  form.append("database", upload.database);
  if (upload.collection !== null) form.append("collection", upload.collection);
  form.append("type", "knowledge");
  form.append("files", upload.file, upload.file.name);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${upload.baseUrl}/context/ingest`);
    xhr.setRequestHeader("Authorization", `Bearer ${upload.apiKey}`);
    xhr.setRequestHeader("API-Version", "2");
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => upload.onProgress(event.loaded, event.lengthComputable ? event.total : upload.file.size);
    xhr.onerror = () => reject(new ApiError(0, "NETWORK_ERROR", `could not reach ${upload.baseUrl}`));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON (a proxy's error page): reported by status below
        body = null;
      }
      const envelope = body as { data?: IngestAnswer; error?: { code?: string; message?: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && envelope?.data) {
        upload.onProgress(upload.file.size, upload.file.size);
        resolve(envelope.data);
        return;
      }
      const code = envelope?.error?.code ?? `HTTP_${xhr.status}`;
      reject(new ApiError(xhr.status, code, envelope?.error?.message ?? `the service answered ${xhr.status}`));
    };
    xhr.send(form);
  });
}
