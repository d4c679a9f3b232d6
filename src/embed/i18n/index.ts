export * from "./locales";
export * from "./formatters";
export * from "./translate";
export { MESSAGE_CATALOGS, type MessageCatalog, type MessageKey } from "./messages";
