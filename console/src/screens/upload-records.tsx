import { useState } from "preact/hooks";

export type RecordKind = "app_knowledge" | "memories";

const EXAMPLES: Record<RecordKind, string> = {
  app_knowledge: [
    JSON.stringify({
      id: "ticket-101",
      type: "ticket",
      title: "Login fails after reset",
      content: { text: "Users report login failures after a password reset." },
    }),
    JSON.stringify({ id: "ticket-102", type: "ticket", title: "Export to CSV", content: { text: "Request: export the report as CSV." } }),
  ].join("\n"),
  memories: [
    JSON.stringify({ id: "pref-1", text: "Prefers answers with code samples in TypeScript.", infer: false }),
    JSON.stringify({ user_assistant_pairs: [{ user: "I moved to Lisbon last month.", assistant: "Noted: you live in Lisbon." }] }),
  ].join("\n"),
};

/** Records from the text: a JSON array, one JSON object, or JSON Lines (one object per line). */
export function parseRecords(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (trimmed === "") throw new Error("Nothing to send: write a JSON array, an object, or one object per line");
  const asList = (value: unknown, where: string): Record<string, unknown>[] => {
    const list = Array.isArray(value) ? (value as unknown[]) : [value];
    return list.map((item, i) => {
      if (typeof item !== "object" || item === null || Array.isArray(item)) throw new Error(`${where}: item ${i + 1} is not a JSON object`);
      return item as Record<string, unknown>;
    });
  };
  if (trimmed.startsWith("[")) return asList(JSON.parse(trimmed), "The array");
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== "");
  try {
    return asList(JSON.parse(trimmed), "The object");
  } catch {
    // not one JSON value: JSON Lines, reported line by line below
  }
  return lines.flatMap((line, i) => {
    try {
      return asList(JSON.parse(line), `Line ${i + 1}`);
    } catch (error) {
      throw new Error(`Line ${i + 1} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** A text area for app items or memories, as JSON or JSON Lines. */
export function RecordsForm(props: { onSubmit: (kind: RecordKind, text: string) => Promise<void>; disabled: boolean }) {
  const [kind, setKind] = useState<RecordKind>("app_knowledge");
  const [text, setText] = useState("");
  const [pending, setPending] = useState(false);
  return (
    <form
      class="records-form"
      onSubmit={(e) => {
        e.preventDefault();
        setPending(true);
        void props.onSubmit(kind, text).finally(() => setPending(false));
      }}
    >
      <div class="row">
        <label>
          Send as
          <select data-testid="records-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as RecordKind)}>
            <option value="app_knowledge">App items (knowledge)</option>
            <option value="memories">Memories</option>
          </select>
        </label>
        <button type="button" data-testid="records-example" onClick={() => setText(EXAMPLES[kind])}>
          Insert example
        </button>
      </div>
      <textarea
        data-testid="records-text"
        rows={7}
        value={text}
        placeholder={kind === "memories" ? '{"text": "Prefers short answers", "infer": false}' : '{"id": "doc-1", "type": "note", "content": {"text": "..."}}'}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="row">
        <button type="submit" class="primary" data-testid="records-submit" disabled={props.disabled || pending || text.trim() === ""}>
          {pending ? "Sending…" : "Send"}
        </button>
      </div>
    </form>
  );
}
