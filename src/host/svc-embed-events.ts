/**
 * The DOM events of `<svc-embed>`: each protocol event `svc:event:<name>` is dispatched on the
 * element as a `CustomEvent` named `svc-<name>` whose `detail` is the whole typed event (the
 * same object `connectSvcEmbed` handlers get: `type`, `payload`, `surface`, `timestamp`).
 */
import { SVC_EVENT_TYPES, type SvcEvent, type SvcEventOf, type SvcEventType } from "../protocol";

/** `svc:event:ready` → `svc-ready`, `svc:event:action-result` → `svc-action-result`, … */
export type SvcEmbedDomEventName<T extends SvcEventType = SvcEventType> = T extends `svc:event:${infer Name}` ? `svc-${Name}` : never;

/** Every DOM event of `<svc-embed>`, by name, typed from the protocol's event types. */
export type SvcEmbedEventMap = { [T in SvcEventType as SvcEmbedDomEventName<T>]: CustomEvent<SvcEventOf<T>> };

const PREFIX = "svc:event:";

/** The DOM event name of a protocol event type. */
export function svcEmbedDomEventName<T extends SvcEventType>(type: T): SvcEmbedDomEventName<T> {
  // The template-literal type above says the same; TypeScript cannot follow a string slice.
  return `svc-${type.slice(PREFIX.length)}` as SvcEmbedDomEventName<T>;
}

/** Every DOM event name `<svc-embed>` dispatches, in the protocol's order. */
export const SVC_EMBED_DOM_EVENTS: readonly SvcEmbedDomEventName[] = SVC_EVENT_TYPES.map(svcEmbedDomEventName);

/** The `CustomEvent` for one protocol event: bubbles, so a listener on an ancestor hears it too; not cancelable. */
export function toDomEvent(event: SvcEvent): CustomEvent<SvcEvent> {
  return new CustomEvent(svcEmbedDomEventName(event.type), { detail: event, bubbles: true, composed: true });
}
