import type { ScreenProps } from "../ui/screen.js";
import { Page } from "../ui/page.js";

export function DatabasesScreen(_props: ScreenProps) {
  return (
    <Page title="Databases" testId="screen-databases">
      <p class="hint">Coming soon.</p>
    </Page>
  );
}
