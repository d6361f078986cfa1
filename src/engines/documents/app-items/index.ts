export { validateAppItem, validateAppItems } from "./validate-app-item.js";
export { referenceId } from "./item-parts.js";
export { renderAppItem } from "./render-app-item.js";
export type * from "./app-item-types.js";
