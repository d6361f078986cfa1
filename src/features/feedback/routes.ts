import { resolveScope } from "../../platform/http/aliases.js";
import type { App } from "../../platform/http/app-type.js";
import { requirePrincipal } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import { envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { FeedbackBody, FeedbackRecorded } from "./schemas.js";
import type { FeedbackService } from "./service.js";

export function registerFeedbackRoutes(app: App, service: FeedbackService): void {
  app.post(
    "/feedback",
    { schema: { tags: ["Feedback"], body: FeedbackBody, response: { 201: envelopeOf(FeedbackRecorded), ...envelopeErrors(...WITH_BODY, 404, 422) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const scope = resolveScope(req, req.body);
      const row = await service.submit(orgId, scope, req.body);
      return sendData(
        req,
        reply,
        {
          success: true,
          feedback_id: row.id,
          request_id: row.request_id,
          recorded: true,
          created_at: new Date(row.created_at).toISOString(),
          message: "Feedback recorded",
        },
        201,
      );
    },
  );
}
