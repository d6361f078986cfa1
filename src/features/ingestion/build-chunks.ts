import type { ChatModelSettings } from "../../platform/config.js";
import { chatModelConfig, createLlmMemoryInferrer, inferMemory } from "../../engines/extraction/index.js";
import { renderAppItem, validateAppItem } from "../../engines/documents/app-items/index.js";
import { chunkDocument, chunkMemory, type Chunk, type ChunkOptions } from "../../engines/documents/chunk/index.js";
import { parseFile, type ParseOptions } from "../../engines/documents/parse/index.js";
import type { BlobStore } from "../items/blob-store.js";
import { orgOf, type ItemRow } from "../items/store.js";

export type Built = { ok: true; chunks: Chunk[]; inferred: string | null } | { ok: false; code: string; message: string };

interface StoredMemory {
  text: string | null;
  user_assistant_pairs: Array<{ user: string; assistant: string }> | null;
  is_markdown: boolean;
}

/**
 * Turns a stored item into chunks: files are parsed from their blob, app items rendered with
 * their fields, comments and attachments, memories chunked (and, with `infer`, the underlying
 * preference or fact extracted and indexed as one more chunk).
 */
export class ChunkBuilder {
  private readonly llm;

  constructor(
    private readonly blobs: BlobStore,
    private readonly options: ChunkOptions,
    chatModel: ChatModelSettings | null,
    /** How files are parsed: archive limits, the deadline, and the parser pool that bounds them. */
    private readonly parsing: ParseOptions = {},
  ) {
    this.llm = chatModel ? createLlmMemoryInferrer(chatModelConfig(chatModel)) : null;
  }

  /** Bytes the item is held as while it is built: its stored content, or its file's size. */
  async weight(item: ItemRow): Promise<number> {
    if (item.origin !== "file") return item.content?.length ?? 0;
    return item.blob_id ? ((await this.blobs.size(orgOf(item), item.blob_id)) ?? 0) : 0;
  }

  async build(item: ItemRow): Promise<Built> {
    switch (item.origin) {
      case "file":
        return this.file(item);
      case "app":
        return this.app(item);
      case "memory":
        return this.memory(item);
    }
  }

  private async file(item: ItemRow): Promise<Built> {
    const bytes = item.blob_id ? await this.blobs.get(orgOf(item), item.blob_id) : null;
    if (!bytes) return { ok: false, code: "FILE_NOT_FOUND", message: "the uploaded file is missing from the blob store" };
    const parsed = await parseFile(bytes, item.file_name ?? item.title, item.file_mime ?? undefined, this.parsing);
    if (!parsed.ok) return { ok: false, code: parsed.code, message: parsed.message };
    return { ok: true, chunks: chunkDocument(parsed.document, this.options), inferred: null };
  }

  private app(item: ItemRow): Built {
    const validated = validateAppItem(JSON.parse(item.content ?? "null"));
    if (!validated.ok) return { ok: false, code: validated.code, message: validated.message };
    return { ok: true, chunks: chunkDocument(renderAppItem(validated.item), this.options), inferred: null };
  }

  private async memory(item: ItemRow): Promise<Built> {
    const m = JSON.parse(item.content ?? "{}") as StoredMemory;
    const title = item.title !== item.source_id ? item.title : undefined;
    const content = m.user_assistant_pairs
      ? { userAssistantPairs: m.user_assistant_pairs, ...(title ? { title } : {}) }
      : { text: m.text ?? "", isMarkdown: m.is_markdown, ...(title ? { title } : {}) };
    const { chunks } = chunkMemory(content, this.options);
    let inferred: string | null = null;
    if (item.infer) {
      const input = m.user_assistant_pairs ?? m.text ?? "";
      const options = {
        ...(item.user_name ? { userName: item.user_name } : {}),
        ...(item.custom_instructions ? { customInstructions: item.custom_instructions } : {}),
      };
      const result = this.llm ? (await this.llm.infer(input, options)).value : inferMemory(input, options);
      inferred = result?.statement ?? null;
      if (inferred) {
        chunks.push({
          position: chunks.length,
          text: inferred,
          sectionPath: ["inferred"],
          unit: "inferred",
          charStart: 0,
          charEnd: inferred.length,
          tokenCount: inferred.split(/\s+/).length,
        });
      }
    }
    return { ok: true, chunks, inferred };
  }
}
