import { buildDocument } from "../parse/build-document.js";
import type { DraftBlock, ParsedDocument } from "../parse/parsed-document.js";
import { markdownToBlocks } from "../parse/parse-markdown.js";
import { textToBlocks } from "../parse/parse-text.js";
import { chunkDocument } from "./chunk-document.js";
import type { Chunk, ChunkOptions } from "./chunk-types.js";

export interface UserAssistantPair {
  user: string;
  assistant: string;
}

/** The parts of a memory item that decide its chunks (validated upstream: text xor pairs). */
export type MemoryContent = { title?: string; text: string; isMarkdown?: boolean } | { title?: string; userAssistantPairs: UserAssistantPair[] };

function renderPair(pair: UserAssistantPair): string {
  return `User: ${pair.user.trim()}\nAssistant: ${pair.assistant.trim()}`;
}

function memoryToDocument(memory: MemoryContent): ParsedDocument {
  let blocks: DraftBlock[];
  let title = memory.title;
  if ("userAssistantPairs" in memory) {
    // Each exchange is one unit: an answer only makes sense next to the question it answers.
    blocks = memory.userAssistantPairs.map((pair, i) => ({ kind: "turn", text: renderPair(pair), sectionPath: [], unit: `turn:${i}` }));
  } else if (memory.isMarkdown === true) {
    const parsed = markdownToBlocks(memory.text);
    blocks = parsed.blocks;
    title ??= parsed.title;
  } else {
    blocks = textToBlocks(memory.text);
  }
  return buildDocument({ format: "memory", title: title ?? "", blocks });
}

export function chunkMemory(memory: MemoryContent, options: ChunkOptions = {}): { document: ParsedDocument; chunks: Chunk[] } {
  const document = memoryToDocument(memory);
  return { document, chunks: chunkDocument(document, options) };
}
