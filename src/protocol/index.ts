export * from "./constants";
export * from "./types";
export * from "./guards";
export * from "./app-channel";
export * from "./app-runtime";
