export { validateAppItem, validateAppItems } from "./validate-app-item.js";
export { referenceId } from "./item-parts.js";
export { renderAppItem } from "./render-app-item.js";
export { normalizeTimestamp } from "./normalize-timestamp.js";
export { mentionsIn, participantsFrom } from "./participants.js";
export { APP_ITEM_KINDS } from "./app-item-types.js";
export type * from "./app-item-types.js";
