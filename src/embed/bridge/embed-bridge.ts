/**
 * Embed side of the protocol: receives host actions through a fixed chain of checks,
 * dispatches them to handlers, answers `requestId`s, and emits events to the allowed host
 * origin that frames the embed (never "*").
 */
import {
  DASHBOARD_ONLY_EVENT_TYPES,
  WIDGET_SURFACES,
  EVENT_TYPES,
  isSvcEvent,
  parseInboundAction,
  PROTOCOL_VERSION,
  SVC_EVENT_TYPES,
  SVC_SOURCE,
  type ErrorPayload,
  type ReadyPayload,
  type Surface,
  type SvcActionType,
  type SvcEventPayloads,
  type SvcEventType,
  type ViewPayload,
} from "../../protocol";
import { serializeFilterParameters } from "../../schema/dashboard-filters";
import type { EmbedStore } from "../state/embed-store";
import { observeElementSize, type ContentSizeOptions, type MeasurableElement, type ResizeObserverConstructor } from "./content-size";
import { createDefaultActionHandlers } from "./default-handlers";
import { normalizeAllowedOrigins, normalizeOrigin, resolveHostOrigin } from "./host-origin";
import type { ActionHandler, ActionOutcome } from "./types";

/** Why an inbound message was dropped, in the order the checks run. */
export const DROP_REASONS = ["sender-window", "origin", "source", "direction", "unknown-type", "invalid-envelope", "invalid-payload"] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** Payload given to `emit`; the bridge fills what it knows (surface, protocol details). */
export type EmitPayload<T extends SvcEventType> = T extends typeof EVENT_TYPES.ready
  ? Omit<ReadyPayload, "protocolVersion" | "capabilities" | "surface">
  : T extends typeof EVENT_TYPES.view
    ? Omit<ViewPayload, "surface"> & { surface?: Surface }
    : SvcEventPayloads[T];

/** The parts of `window` the bridge uses; a real window satisfies it. */
export interface EmbedWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  readonly location: { readonly ancestorOrigins?: ArrayLike<string> | null };
  readonly document: { readonly referrer: string };
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  readonly ResizeObserver?: ResizeObserverConstructor;
}

/** Options of `createEmbedBridge`. */
export interface EmbedBridgeOptions {
  /** The embed's own window. */
  window: EmbedWindow;
  /** Surface this embed is; stamped on every event. */
  surface: Surface;
  /** Host origins allowed to frame the embed, receive events and send actions. Never "*". */
  allowedOrigins: readonly string[];
  /** Runtime state the default action handlers write to. */
  store: EmbedStore;
  /** Called for every dropped inbound message (for diagnostics; never the payload itself). */
  onDrop?: (reason: DropReason, event: MessageEvent) => void;
  /** Clock for timestamps; default Date.now. */
  now?: () => number;
  /** Install the default handlers (color scheme, theme, locale, time zone, filter, navigate, refresh); default true. */
  defaultHandlers?: boolean;
}

export interface EmbedBridge {
  readonly surface: Surface;
  /** The allowed origin events go to, or null when events go nowhere. */
  readonly hostOrigin: string | null;
  /** Counts of dropped inbound messages by reason (a snapshot). */
  readonly dropped: Readonly<Record<DropReason, number>>;
  /** Sets the handler of an action type (replacing a default); returns a remover. */
  handle<T extends SvcActionType>(type: T, handler: ActionHandler<T>): () => void;
  /**
   * Emits an event. `ready` goes out at most once; other events (except `error`) wait until
   * `ready` has gone out so that `ready` is always first. Returns false when nothing was
   * (or will be) posted: no allowed host, invalid payload, or a second `ready`.
   */
  emit<T extends SvcEventType>(type: T, payload: EmitPayload<T>): boolean;
  emitError(error: ErrorPayload): boolean;
  /** Reports the content element's size as `resize` events; returns a function that stops it. */
  observeContentSize(element: MeasurableElement, options?: ContentSizeOptions): () => void;
  /** Processes one message event (what the window listener calls); resolves when handled. */
  receive(event: MessageEvent): Promise<void>;
  destroy(): void;
}

const MAX_QUEUED_EVENTS = 100;

export function createEmbedBridge(options: EmbedBridgeOptions): EmbedBridge {
  const { window: win, surface, store } = options;
  // The surface on screen: the frame's own until a `view` names another (after `navigate`).
  let currentSurface: Surface = surface;
  const now = options.now ?? Date.now;
  const allowed = normalizeAllowedOrigins(options.allowedOrigins);
  let hostOrigin = resolveHostOrigin(win, allowed);
  const dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
  const handlers = new Map<SvcActionType, ActionHandler<SvcActionType>>();
  let readySent = false;
  let queue: Array<{ type: SvcEventType; payload: unknown }> = [];
  let destroyed = false;
  const stoppers: Array<() => void> = [];

  // The report surface shows one widget of a dashboard: its events, but no `dashboard-loaded`.
  const showsWidgets = (WIDGET_SURFACES as readonly Surface[]).includes(surface);
  const capabilityEvents = (): SvcEventType[] =>
    SVC_EVENT_TYPES.filter((t) => surface === "dashboard" || (showsWidgets && t !== EVENT_TYPES.dashboardLoaded) || !DASHBOARD_ONLY_EVENT_TYPES.includes(t));

  function post(type: SvcEventType, payload: unknown): boolean {
    const envelope = { source: SVC_SOURCE, direction: "event", type, payload, timestamp: now(), surface: currentSurface };
    // Our own events are checked too: a malformed event is a bug, and hosts must never see it.
    if (!isSvcEvent(envelope)) return false;
    if (hostOrigin === null || destroyed) return false;
    win.parent.postMessage(envelope, hostOrigin);
    return true;
  }

  function emit<T extends SvcEventType>(type: T, payload: EmitPayload<T>): boolean {
    if (destroyed) return false;
    if (type === EVENT_TYPES.ready) {
      if (readySent) return false;
      const full: ReadyPayload = {
        ...(payload as EmitPayload<typeof EVENT_TYPES.ready>),
        surface,
        protocolVersion: PROTOCOL_VERSION,
        capabilities: { events: capabilityEvents(), actions: [...handlers.keys()] },
      };
      const probe = { source: SVC_SOURCE, direction: "event", type, payload: full, timestamp: 0, surface };
      if (!isSvcEvent(probe)) return false;
      readySent = true;
      const posted = post(type, full);
      const pending = queue;
      queue = [];
      for (const item of pending) post(item.type, item.payload);
      return posted;
    }
    const full = type === EVENT_TYPES.view ? { surface: currentSurface, ...(payload as object) } : payload;
    if (type === EVENT_TYPES.view) currentSurface = (full as { surface: Surface }).surface;
    if (!readySent && type !== EVENT_TYPES.error) {
      if (!isSvcEvent({ source: SVC_SOURCE, direction: "event", type, payload: full, timestamp: 0, surface })) return false;
      if (queue.length >= MAX_QUEUED_EVENTS) queue.shift();
      queue.push({ type, payload: full });
      return hostOrigin !== null;
    }
    return post(type, full);
  }

  function drop(reason: DropReason, event: MessageEvent): void {
    dropped[reason] += 1;
    options.onDrop?.(reason, event);
  }

  function answer(requestId: string | undefined, action: string, outcome: ActionOutcome): void {
    if (requestId === undefined) return;
    emit(EVENT_TYPES.actionResult, {
      requestId,
      action,
      status: outcome.status,
      ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    });
  }

  async function receive(event: MessageEvent): Promise<void> {
    try {
      if (destroyed) return;
      // (1) Only the window that frames us; when not framed, parent is ourselves and nobody qualifies.
      if (win.parent === (win as unknown) || event.source !== (win.parent as unknown)) return drop("sender-window", event);
      // (2) Only allowed host origins.
      if (typeof event.origin !== "string" || !allowed.has(event.origin)) return drop("origin", event);
      const parsed = parseInboundAction(event.data);
      if (!parsed.ok) {
        // (3) to (6): source, direction, type, payload.
        const reason: DropReason = parsed.reason === "not-svc-message" ? "source" : parsed.reason === "wrong-direction" ? "direction" : parsed.reason;
        drop(reason, event);
        // The sender is verified, so a host waiting on a requestId learns why instead of timing out.
        if (reason !== "source" && reason !== "direction") {
          answer(parsed.requestId, parsed.type ?? "", { status: "rejected", reason });
        }
        return;
      }
      // The parent's origin is now known for certain, also where ancestorOrigins and referrer were missing.
      hostOrigin ??= normalizeOrigin(event.origin);
      const action = parsed.action;
      const handler = handlers.get(action.type);
      if (!handler) return answer(action.requestId, action.type, { status: "ignored", reason: "not-supported" });
      let outcome: ActionOutcome;
      try {
        outcome = (await handler(action.payload, action)) ?? { status: "applied" };
      } catch {
        outcome = { status: "rejected", reason: "handler-failed" };
      }
      answer(action.requestId, action.type, outcome);
    } catch {
      // Receiving must never throw into the page; a failure here is counted as a bad payload.
      dropped["invalid-payload"] += 1;
    }
  }

  const listener = (event: MessageEvent) => {
    void receive(event);
  };
  win.addEventListener("message", listener);

  const bridge: EmbedBridge = {
    surface,
    get hostOrigin() {
      return hostOrigin;
    },
    get dropped() {
      return { ...dropped };
    },
    handle(type, handler) {
      handlers.set(type, handler as unknown as ActionHandler<SvcActionType>);
      return () => {
        if (handlers.get(type) === (handler as unknown)) handlers.delete(type);
      };
    },
    emit,
    emitError: (error) => emit(EVENT_TYPES.error, error),
    observeContentSize(element, sizeOptions) {
      const stop = observeElementSize(element, (size) => emit(EVENT_TYPES.resize, size), win.ResizeObserver ?? globalThis.ResizeObserver, sizeOptions);
      stoppers.push(stop);
      return stop;
    },
    receive,
    destroy() {
      destroyed = true;
      win.removeEventListener("message", listener);
      for (const stop of stoppers.splice(0)) stop();
    },
  };

  if (options.defaultHandlers !== false) {
    const defaults = createDefaultActionHandlers(store);
    for (const type of Object.keys(defaults) as SvcActionType[]) {
      bridge.handle(type, defaults[type] as ActionHandler<typeof type>);
    }
  }

  // filters-changed: one event per change of the filter state, whatever changed it.
  if (showsWidgets) {
    let lastFilters = serializeFilterParameters(store.getState().filters);
    stoppers.push(
      store.subscribe((state, previous) => {
        if (state.filters === previous.filters) return;
        const next = serializeFilterParameters(state.filters);
        if (next.length === lastFilters.length && next.every((p, i) => p === lastFilters[i])) return;
        lastFilters = next;
        emit(EVENT_TYPES.filtersChanged, { filterUrlParameters: next });
      }),
    );
  }

  return bridge;
}
