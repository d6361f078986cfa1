import { useRef, useState } from "preact/hooks";
import { ACCEPT_ATTRIBUTE, ACCEPTED_LIST } from "../ui/file-types.js";

/** Pick files with the dialog (several at once) or drop them on the area. */
export function FilePicker(props: { onFiles: (files: File[]) => void; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div
      class={`dropzone${over ? " over" : ""}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length > 0 && !props.disabled) props.onFiles(files);
      }}
    >
      <p>
        Drop files here, or{" "}
        <button type="button" class="link" disabled={props.disabled} onClick={() => input.current?.click()}>
          choose files
        </button>
      </p>
      <p class="hint" data-testid="accepted-types">
        PDF, DOCX, Markdown, CSV, TXT ({ACCEPTED_LIST}). Each file is sent on its own, with its progress below.
      </p>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        hidden
        data-testid="file-input"
        disabled={props.disabled}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = "";
          if (files.length > 0) props.onFiles(files);
        }}
      />
    </div>
  );
}
