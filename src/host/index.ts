export { connectSvcEmbed, SvcRequestError } from "./connect-svc-embed";
export type { ConnectSvcEmbedOptions, HostRejectReason, RequestOptions, SvcEmbedConnection, SvcEventHandler } from "./connect-svc-embed";
export * from "../protocol";
