/**
 * `svc/host/svc-embed`: importing this entry registers `<svc-embed>` on the page (browser only).
 * `svc/host` exports the same class and `defineSvcEmbed` without registering anything.
 */
import { defineSvcEmbed } from "./svc-embed-element";

defineSvcEmbed();

export { defineSvcEmbed, SvcEmbedElement, SVC_EMBED_ALLOW, SVC_EMBED_SANDBOX } from "./svc-embed-element";
export { SVC_EMBED_DOM_EVENTS, svcEmbedDomEventName } from "./svc-embed-events";
export type { SvcEmbedDomEventName, SvcEmbedEventMap } from "./svc-embed-events";
