// Indexing webhooks (#/webhooks): the registration, its signing secret, a test event, and the
// deliveries with their attempts and a retry.
import "../graph/console-graph.css";
import { useState } from "preact/hooks";
import { DeliveriesPanel } from "../webhooks/deliveries-panel.js";
import { RegistrationPanel } from "../webhooks/registration-panel.js";
import { SecretPanel } from "../webhooks/secret-panel.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";
import { useApi } from "../ui/use-polling.js";

export function WebhooksScreen(props: ScreenProps) {
  const { api } = props;
  const [secret, setSecret] = useState<string | null>(null);
  const registration = useApi(async () => api.call(api.raw.GET("/webhooks/indexing")), [api]);
  const current = registration.data;
  return (
    <Page title="Webhooks" subtitle="Indexing outcomes (completed, errored) pushed to your endpoint, signed, retried until delivered." testId="screen-webhooks">
      <ErrorBanner error={registration.error} />
      <div class="grid-2">
        <Panel title="Registration">
          <RegistrationPanel api={api} registration={current} onChanged={registration.refresh} onSecret={setSecret} />
        </Panel>
        <Panel title="Signing secret">
          <SecretPanel
            api={api}
            registered={current?.registered ?? false}
            configured={current?.signing_secret_configured ?? false}
            fresh={secret}
            onSecret={setSecret}
            onChanged={registration.refresh}
          />
        </Panel>
      </div>
      <Panel title="Deliveries">
        <DeliveriesPanel api={api} />
      </Panel>
    </Page>
  );
}
