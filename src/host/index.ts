export { connectSvcEmbed, normalizeTargetOrigin, SvcRequestError } from "./connect-svc-embed";
export type { ConnectSvcEmbedOptions, HostRejectReason, RequestOptions, SvcEmbedConnection, SvcEventHandler } from "./connect-svc-embed";
export { defineSvcEmbed, SvcEmbedElement, SVC_EMBED_ALLOW, SVC_EMBED_SANDBOX } from "./svc-embed-element";
export { SVC_EMBED_DOM_EVENTS, svcEmbedDomEventName } from "./svc-embed-events";
export type { SvcEmbedDomEventName, SvcEmbedEventMap } from "./svc-embed-events";
export * from "../protocol";
