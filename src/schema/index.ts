export * from "./common";
export * from "./dashboard";
export * from "./workbook";
export * from "./deployment";
export * from "./embed-session";
export * from "./embed-tenant";
export * from "./user-attribute";
export * from "./auth";
