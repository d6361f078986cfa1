// Decides which parser handles a file. Magic bytes win over the file name, because uploads often
// arrive with generic names or wrong MIME types; text formats have no magic, so for them the
// extension (then the MIME type) decides, after checking the bytes really are text.

export type FileFormat = "pdf" | "docx" | "markdown" | "csv" | "txt";

export type FormatDetection = { ok: true; format: FileFormat } | { ok: false; reason: "unsupported" | "mismatch"; message: string };

/** Named in every refusal, so the caller knows what to send instead. */
const SUPPORTED_FORMATS = "supported: PDF, DOCX, Markdown (.md), CSV, TXT";

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // "PK\x03\x04"

/** Signatures of common binary formats we do not ingest, so they are not mistaken for text. */
const OTHER_BINARY_MAGIC: number[][] = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x1f, 0x8b], // gzip
  [0xd0, 0xcf, 0x11, 0xe0], // OLE2 (legacy .doc/.xls)
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x52, 0x61, 0x72, 0x21], // RAR
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
];

const EXTENSION_FORMATS: Record<string, FileFormat> = {
  pdf: "pdf",
  docx: "docx",
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  csv: "csv",
  txt: "txt",
  text: "txt",
};

/** The file name extensions a file is recognised by (lower case, no dot); the console lists them. */
export const ACCEPTED_EXTENSIONS: readonly string[] = Object.keys(EXTENSION_FORMATS);

const MIME_FORMATS: Record<string, FileFormat> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/plain": "txt",
};

function startsWith(bytes: Uint8Array, magic: number[], offset = 0): boolean {
  if (bytes.length < offset + magic.length) return false;
  return magic.every((b, i) => bytes[offset + i] === b);
}

/** PDFs may carry up to 1 KiB of junk before the header; readers accept that, so do we. */
function findPdfHeader(bytes: Uint8Array): boolean {
  const limit = Math.min(1024, bytes.length - PDF_MAGIC.length);
  for (let i = 0; i <= limit; i++) if (startsWith(bytes, PDF_MAGIC, i)) return true;
  return false;
}

function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * Text heuristic over the first 8 KiB: no NUL bytes and few control characters. UTF-8 validity is
 * not required (latin-1 files are common); the decoder replaces bad sequences.
 */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  return control <= sample.length * 0.02;
}

/**
 * The format a file's name claims, else its MIME type; undefined when neither names a supported
 * one. The console asks this before sending a file, so what it refuses is what this module refuses.
 */
export function claimedFormat(fileName: string, mime?: string): FileFormat | undefined {
  const byName = EXTENSION_FORMATS[extensionOf(fileName)];
  return byName ?? (mime === undefined ? undefined : MIME_FORMATS[mime.split(";")[0]?.trim().toLowerCase() ?? ""]);
}

export function detectFormat(bytes: Uint8Array, fileName: string, mime?: string): FormatDetection {
  const ext = extensionOf(fileName);
  const claimed = claimedFormat(fileName, mime);

  if (findPdfHeader(bytes)) return { ok: true, format: "pdf" };
  if (startsWith(bytes, ZIP_MAGIC)) {
    // Any ZIP could be a DOCX; the DOCX parser checks for word/document.xml and fails cleanly.
    if (claimed === "docx" || claimed === undefined) return { ok: true, format: "docx" };
    return { ok: false, reason: "unsupported", message: `${fileName}: ZIP archive is not a supported format (${SUPPORTED_FORMATS})` };
  }
  if (claimed === "pdf" || claimed === "docx") {
    // Named like a binary format but without its signature: a corrupt or mislabelled upload.
    return { ok: false, reason: "mismatch", message: `${fileName}: content is not a valid ${claimed.toUpperCase()} file` };
  }
  if (OTHER_BINARY_MAGIC.some((m) => startsWith(bytes, m)) || !looksLikeText(bytes)) {
    return { ok: false, reason: "unsupported", message: `${fileName}: binary content is not a supported format (${SUPPORTED_FORMATS})` };
  }
  if (claimed !== undefined) return { ok: true, format: claimed };
  if (ext === "" && mime === undefined) return { ok: true, format: "txt" };
  return {
    ok: false,
    reason: "unsupported",
    message: `${fileName}: unsupported file type (${SUPPORTED_FORMATS})`,
  };
}
