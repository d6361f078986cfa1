import { inflateRawSync } from "node:zlib";

/**
 * Zip bomb defence for zip-based formats (DOCX). A small archive can inflate to gigabytes, and
 * the zip reader under mammoth inflates whole entries into memory, so the archive is judged
 * before it is opened: the central directory's declared sizes against a total and a per-entry
 * ratio, then (`verifyInflation`) each entry inflated with an output cap, because declared
 * sizes are the attacker's to choose.
 */
export interface ArchiveLimits {
  /** Sum of the entries' uncompressed sizes. */
  readonly maxUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio of an entry above RATIO_GRACE_BYTES. */
  readonly maxCompressionRatio: number;
}

/** FILE_TOO_LARGE: past a limit; PROCESSING_FAILED: an archive we cannot read, so neither may the zip reader. */
export type ArchiveCheck = { ok: true } | { ok: false; code: "FILE_TOO_LARGE" | "PROCESSING_FAILED"; message: string };

/** Entries smaller than this are not ratio-checked: they cannot hurt, and tiny XML parts compress very well. */
const RATIO_GRACE_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10_000;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_MARKER = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
}

const fail = (message: string): ArchiveCheck => ({ ok: false, code: "FILE_TOO_LARGE", message });
const unreadable = (message: string): ArchiveCheck => ({ ok: false, code: "PROCESSING_FAILED", message });

/** Directory problems: the size ones are limits, the rest make the archive unreadable. */
function directoryFailure(problem: string): ArchiveCheck {
  return /ZIP64|more than/.test(problem) ? fail(problem) : unreadable(problem);
}

function findEndOfDirectory(view: DataView): number {
  // the end record is 22 bytes plus a comment of up to 65,535
  const stop = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= stop; i--) if (view.getUint32(i, true) === EOCD_SIGNATURE) return i;
  return -1;
}

function readDirectory(bytes: Uint8Array): Entry[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfDirectory(view);
  if (eocd < 0) return "not a readable zip archive (no central directory)";
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  if (offset === ZIP64_MARKER || count === 0xffff) return "ZIP64 archives are not accepted";
  if (count > MAX_ENTRIES) return `the archive has more than ${MAX_ENTRIES} entries`;
  const entries: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return "the archive's central directory is corrupt";
    const nameLength = view.getUint16(at + 28, true);
    const entry: Entry = {
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      uncompressed: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString("utf8"),
    };
    if (entry.compressed === ZIP64_MARKER || entry.uncompressed === ZIP64_MARKER || entry.localOffset === ZIP64_MARKER)
      return "ZIP64 archives are not accepted";
    entries.push(entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

function judgeSizes(entries: readonly Entry[], limits: ArchiveLimits): ArchiveCheck {
  let total = 0;
  for (const e of entries) {
    total += e.uncompressed;
    if (total > limits.maxUncompressedBytes) {
      return fail(`the archive inflates to more than ${limits.maxUncompressedBytes} bytes (MAX_ARCHIVE_UNCOMPRESSED_BYTES)`);
    }
    if (e.uncompressed > RATIO_GRACE_BYTES && e.uncompressed > e.compressed * limits.maxCompressionRatio) {
      const ratio = e.compressed === 0 ? "unbounded" : `${Math.round(e.uncompressed / e.compressed)}:1`;
      return fail(`archive entry '${e.name}' compresses ${ratio}, above ${limits.maxCompressionRatio}:1 (MAX_ARCHIVE_COMPRESSION_RATIO)`);
    }
  }
  return { ok: true };
}

/** Inflates each deflated entry with its declared size as the output cap: a lying directory fails here. */
function verifyEntries(bytes: Uint8Array, entries: readonly Entry[]): ArchiveCheck {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const e of entries) {
    if (e.method !== DEFLATED && e.method !== STORED) continue; // the zip reader refuses other methods itself
    const at = e.localOffset;
    if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== LOCAL_SIGNATURE) return unreadable("the archive's entries are corrupt");
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const data = bytes.subarray(start, start + e.compressed);
    if (e.method === STORED) {
      if (e.compressed !== e.uncompressed) return unreadable(`archive entry '${e.name}' is stored with inconsistent sizes`);
      continue;
    }
    try {
      const out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.uncompressed) });
      if (out.byteLength > e.uncompressed) return fail(`archive entry '${e.name}' inflates beyond its declared size`);
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return fail(`archive entry '${e.name}' inflates beyond its declared size`);
      // corrupt data: left to the zip reader, which reports it as unreadable
    }
  }
  return { ok: true };
}

/** The directory check alone: cheap enough for the request path. */
export function checkArchiveDirectory(bytes: Uint8Array, limits: ArchiveLimits): ArchiveCheck {
  const entries = readDirectory(bytes);
  return typeof entries === "string" ? directoryFailure(entries) : judgeSizes(entries, limits);
}

/** The directory check, then every entry inflated under its declared size; run before the zip reader. */
export function checkArchive(bytes: Uint8Array, limits: ArchiveLimits): ArchiveCheck {
  const entries = readDirectory(bytes);
  if (typeof entries === "string") return directoryFailure(entries);
  const sizes = judgeSizes(entries, limits);
  return sizes.ok ? verifyEntries(bytes, entries) : sizes;
}
