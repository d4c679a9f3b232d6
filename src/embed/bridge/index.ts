export { createEmbedBridge, DROP_REASONS } from "./embed-bridge";
export type { DropReason, EmbedBridge, EmbedBridgeOptions, EmbedWindow, EmitPayload } from "./embed-bridge";
export type { ActionHandler, ActionOutcome } from "./types";
export { createDefaultActionHandlers, isInEmbedPath } from "./default-handlers";
export { normalizeAllowedOrigins, normalizeOrigin, resolveHostOrigin } from "./host-origin";
export { measureContentSize, observeElementSize } from "./content-size";
export type { ContentSize, ContentSizeOptions, MeasurableElement } from "./content-size";
export { holdActionUntil } from "./hold-action";
