import type { App } from "../../platform/http/app-type.js";
import { requirePrincipal } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import { envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { ListResultSchema } from "./schemas.js";
import { ListBody, readListRequest } from "./list-request.js";
import type { ListService } from "./list-service.js";

export function registerListRoutes(app: App, service: ListService): void {
  app.post(
    "/context/list",
    { schema: { tags: ["Context"], body: ListBody, response: { 200: envelopeOf(ListResultSchema), ...envelopeErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const query = readListRequest(req, req.body);
      return sendData(req, reply, await service.list(orgId, query));
    },
  );
}
