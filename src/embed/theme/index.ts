export * from "./embed-theme";
export * from "./color-scheme";
