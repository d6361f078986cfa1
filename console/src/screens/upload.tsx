import type { ScreenProps } from "../ui/screen.js";
import { Page } from "../ui/page.js";

export function UploadScreen(_props: ScreenProps) {
  return (
    <Page title="Upload" testId="screen-upload">
      <p class="hint">Coming soon.</p>
    </Page>
  );
}
