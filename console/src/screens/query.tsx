import type { ScreenProps } from "../ui/screen.js";
import { Page } from "../ui/page.js";

export function QueryScreen(_props: ScreenProps) {
  return (
    <Page title="Query playground" testId="screen-query">
      <p class="hint">Coming soon.</p>
    </Page>
  );
}
