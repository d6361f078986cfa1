import type { ScreenProps } from "../ui/screen.js";
import { Page } from "../ui/page.js";

export function ItemsScreen(_props: ScreenProps) {
  return (
    <Page title="Items" testId="screen-items">
      <p class="hint">Coming soon.</p>
    </Page>
  );
}
