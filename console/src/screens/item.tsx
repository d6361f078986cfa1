import type { ScreenProps } from "../ui/screen.js";
import { Page } from "../ui/page.js";

export function ItemScreen(_props: ScreenProps) {
  return (
    <Page title="Item" testId="screen-item">
      <p class="hint">Coming soon.</p>
    </Page>
  );
}
