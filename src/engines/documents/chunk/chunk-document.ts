import type { Block, ParsedDocument } from "../parse/parsed-document.js";
import type { Chunk, ChunkOptions, ResolvedChunkOptions } from "./chunk-types.js";
import { splitLongText } from "./split-long-text.js";
import { wordPieceCount, wordPieceEstimate } from "./token-spans.js";

const DEFAULT_MAX_TOKENS = 256;
const DEFAULT_OVERLAP_TOKENS = 32;

function resolveChunkOptions(options: ChunkOptions = {}): ResolvedChunkOptions {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const overlapTokens = options.overlapTokens ?? DEFAULT_OVERLAP_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new RangeError(`overlapTokens must be an integer in [0, maxTokens), got ${overlapTokens}`);
  }
  const spans = options.tokenSpans;
  return spans
    ? { maxTokens, overlapTokens, tokenSpans: spans, countTokens: (text) => spans(text).length }
    : { maxTokens, overlapTokens, tokenSpans: wordPieceEstimate, countTokens: wordPieceCount };
}

/** Blocks that may share a chunk: the same unit, or else the same section on the same page. */
function groupKey(block: Block): string {
  if (block.unit !== undefined) return `unit\u0000${block.unit}`;
  return `section\u0000${block.page ?? ""}\u0000${block.sectionPath.join("\u0001")}`;
}

function groupBlocks(blocks: Block[]): Block[][] {
  const groups: Block[][] = [];
  let current: Block[] = [];
  let key: string | undefined;
  for (const block of blocks) {
    const k = groupKey(block);
    if (k !== key && current.length > 0) {
      groups.push(current);
      current = [];
    }
    key = k;
    current.push(block);
  }
  if (current.length > 0) groups.push(current);
  // A group of headings alone ("# Guide" directly followed by "## Install") is carried into the
  // next group of the same page and unit, so no chunk is a bare title.
  const merged: Block[][] = [];
  let carried: Block[] = [];
  for (const group of groups) {
    const head = group[0];
    const compatible = carried[0] === undefined || (carried[0].page === head?.page && carried[0].unit === head?.unit);
    if (!compatible) {
      merged.push(carried);
      carried = [];
    }
    if (group.every((b) => b.kind === "heading")) {
      carried.push(...group);
      continue;
    }
    merged.push([...carried, ...group]);
    carried = [];
  }
  if (carried.length > 0) merged.push(carried);
  return merged;
}

type ChunkDraft = Omit<Chunk, "position">;

class GroupPacker {
  private pending: Block[] = [];
  private pendingTokens = 0;

  constructor(
    private readonly document: ParsedDocument,
    private readonly options: ResolvedChunkOptions,
    private readonly out: ChunkDraft[],
  ) {}

  pack(group: Block[]): void {
    for (const block of group) {
      const tokens = this.options.countTokens(block.text);
      if (tokens > this.options.maxTokens) {
        // Headings waiting for content go into the first piece of the long block.
        const onlyHeadings = this.pending.every((b) => b.kind === "heading");
        const start = onlyHeadings && this.pending[0] !== undefined ? this.pending[0].start : block.start;
        if (!onlyHeadings) this.flush();
        this.pending = [];
        this.pendingTokens = 0;
        for (const w of splitLongText(this.document.text, start, block.end, this.options)) {
          this.emit(w.start, w.end, w.tokenCount, block);
        }
        continue;
      }
      if (this.pendingTokens + tokens > this.options.maxTokens) this.flush();
      this.pending.push(block);
      this.pendingTokens += tokens;
    }
    this.flush();
  }

  private flush(): void {
    const first = this.pending[0];
    const last = this.pending[this.pending.length - 1];
    if (first !== undefined && last !== undefined) this.emit(first.start, last.end, this.pendingTokens, last);
    this.pending = [];
    this.pendingTokens = 0;
  }

  /** `block` supplies the location: the last block's section path is the most specific one. */
  private emit(start: number, end: number, tokenCount: number, block: Block): void {
    const chunk: ChunkDraft = {
      text: this.document.text.slice(start, end),
      sectionPath: block.sectionPath,
      charStart: start,
      charEnd: end,
      tokenCount,
    };
    if (block.page !== undefined) chunk.page = block.page;
    if (block.unit !== undefined) chunk.unit = block.unit;
    this.out.push(chunk);
  }
}

/**
 * Structure-aware chunking: chunks never cross a section, page or unit boundary; small blocks of
 * one group are packed up to `maxTokens`; a block longer than that is cut into overlapping windows.
 */
export function chunkDocument(document: ParsedDocument, options: ChunkOptions = {}): Chunk[] {
  const resolved = resolveChunkOptions(options);
  const drafts: ChunkDraft[] = [];
  const packer = new GroupPacker(document, resolved, drafts);
  for (const group of groupBlocks(document.blocks)) packer.pack(group);
  return drafts.map((d, position) => ({ position, ...d }));
}
