// The webhook answers the screen reads, named once from the generated API types.
import type { paths } from "../../../src/client/api-types.js";

export type Registration = paths["/webhooks/indexing"]["get"]["responses"][200]["content"]["application/json"];
export type Delivery = paths["/webhooks/indexing/deliveries"]["get"]["responses"][200]["content"]["application/json"]["deliveries"][number];
