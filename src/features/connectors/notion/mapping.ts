import type { SyncedObject } from "../provider.js";
import { plain, type NotionBlock, type NotionPage, type NotionUser, type RichText } from "./client.js";

const TEXT_BLOCKS = new Set([
  "paragraph",
  "heading_1",
  "heading_2",
  "heading_3",
  "bulleted_list_item",
  "numbered_list_item",
  "to_do",
  "toggle",
  "quote",
  "callout",
  "code",
]);

/** The text line of one block ("" for blocks without text); headings and to-dos keep a marker. */
export function blockText(block: NotionBlock): string {
  const body = block[block.type] as { rich_text?: RichText[]; checked?: boolean; cells?: RichText[][]; title?: string } | undefined;
  if (body === undefined) return "";
  if (TEXT_BLOCKS.has(block.type)) {
    const text = plain(body.rich_text);
    if (block.type.startsWith("heading_")) return `${"#".repeat(Number(block.type.slice(-1)))} ${text}`;
    if (block.type === "to_do") return `[${body.checked === true ? "x" : " "}] ${text}`;
    if (block.type === "bulleted_list_item" || block.type === "numbered_list_item") return `- ${text}`;
    return text;
  }
  if (block.type === "table_row") return (body.cells ?? []).map((cell) => plain(cell)).join(" | ");
  if (block.type === "child_database") return body.title ? `[database: ${body.title}]` : "";
  return "";
}

/** A page's title: its `title` property. */
export const pageTitle = (page: NotionPage): string => plain(Object.values(page.properties).find((p) => p.type === "title")?.title).trim();

const person = (id: string | undefined, users: ReadonlyMap<string, NotionUser>): Record<string, string> | undefined => {
  if (!id) return undefined;
  const u = users.get(id);
  return { id, ...(u?.name ? { name: u.name } : {}), ...(u?.person?.email ? { email: u.person.email.toLowerCase() } : {}) };
};

export interface PageContext {
  resourceType: string;
  /** The page above this one (a sub-page's parent) when it is synced too. */
  parentPageId: string | null;
  databaseId: string | null;
}

/** A Notion page (a sub-page or a database entry) with its block text as a `knowledge_base` item. */
export function notionPageObject(page: NotionPage, body: string, ctx: PageContext, users: ReadonlyMap<string, NotionUser>): SyncedObject {
  const title = pageTitle(page);
  const author = person(page.created_by?.id, users);
  const editor = person(page.last_edited_by?.id, users);
  return {
    kind: "knowledge_base",
    nativeId: page.id,
    item: {
      kind: "knowledge_base",
      provider: "notion",
      external_id: page.id,
      title: title === "" ? "Untitled" : title,
      ...(page.url ? { url: page.url } : {}),
      created_at: page.created_time,
      updated_at: page.last_edited_time,
      fields: {
        body,
        ...(author ? { created_by: author } : {}),
        ...(editor ? { last_edited_by: editor } : {}),
        last_edited_time: page.last_edited_time,
        ...(ctx.databaseId ? { database_id: ctx.databaseId } : {}),
      },
    },
    ...(ctx.parentPageId ? { parent: { kind: "knowledge_base" as const, nativeId: ctx.parentPageId } } : {}),
    links: ctx.parentPageId ? [{ predicate: "child_of", kind: "knowledge_base", nativeId: ctx.parentPageId }] : [],
    nativeKeys: { resource_type: ctx.resourceType, notion_page_id: page.id, ...(ctx.databaseId ? { notion_database_id: ctx.databaseId } : {}) },
  };
}
