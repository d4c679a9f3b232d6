/**
 * Host kit: a typed listener and sender for a page that embeds an svc surface in an iframe.
 * Optional for hosts (the protocol works with raw postMessage); it applies the spec 5.6
 * checks to every message so a host cannot forget them.
 */
import {
  EVENT_TYPES,
  isActionPayload,
  isSvcEvent,
  isSvcActionType,
  SVC_SOURCE,
  type ActionResultPayload,
  type ReadyEvent,
  type SvcActionInput,
  type SvcEvent,
  type SvcEventOf,
  type SvcEventType,
} from "../protocol";

/** Options of `connectSvcEmbed`. */
export interface ConnectSvcEmbedOptions {
  /** The svc tenant origin serving the iframe, e.g. `https://acme.svc.example`. Never "*". */
  origin: string;
  /** The host window to listen on; default the global `window`. */
  window?: Pick<Window, "addEventListener" | "removeEventListener">;
  /** Called for each message that failed a check (for debugging); default none. */
  onReject?: (reason: HostRejectReason, event: MessageEvent) => void;
  /**
   * Called when a host handler throws; default reports it to the page (`reportError`) so it
   * shows in the console without stopping the other handlers.
   */
  onHandlerError?: (error: unknown, event: SvcEvent) => void;
}

export type HostRejectReason = "origin" | "sender-window" | "source" | "direction" | "invalid-event";

/** Options of `request`. */
export interface RequestOptions {
  /** How long to wait for `action-result`; default 5000 ms. */
  timeoutMs?: number;
}

export type SvcEventHandler<T extends SvcEventType> = (event: SvcEventOf<T>) => void;

export interface SvcEmbedConnection {
  /** Subscribes to one event type, or to every event with "*"; returns an unsubscribe function. */
  on<T extends SvcEventType>(type: T, handler: SvcEventHandler<T>): () => void;
  on(type: "*", handler: (event: SvcEvent) => void): () => void;
  /** Resolves with the first `ready` event (also when it arrived before this call). */
  readonly ready: Promise<ReadyEvent>;
  /** Posts an action to the iframe, targeting the configured origin. */
  send(action: SvcActionInput): void;
  /**
   * Posts an action with a generated `requestId` and resolves with the embed's
   * `action-result` (applied, ignored or rejected). Rejects on timeout or destroy.
   */
  request(action: SvcActionInput, options?: RequestOptions): Promise<ActionResultPayload>;
  /** Stops listening and rejects pending requests. */
  destroy(): void;
}

/** Error of `request`: `code` says why no result arrived. */
export class SvcRequestError extends Error {
  constructor(
    readonly code: "timeout" | "destroyed",
    message: string,
  ) {
    super(message);
    this.name = "SvcRequestError";
  }
}

/**
 * The exact origin (`scheme://host[:port]`) of an svc tenant; throws `TypeError` for `"*"`, for
 * what is not a URL and for what is not http(s).
 */
export function normalizeTargetOrigin(origin: string): string {
  if (typeof origin !== "string" || origin.includes("*")) {
    throw new TypeError('connectSvcEmbed needs the exact svc origin, never "*"');
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`connectSvcEmbed: "${origin}" is not an origin`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`connectSvcEmbed: "${origin}" is not an http(s) origin`);
  return url.origin;
}

let requestCounter = 0;
function nextRequestId(): string {
  requestCounter += 1;
  const random = globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2);
  return `req-${requestCounter}-${random}`;
}

/**
 * Connects to an svc iframe. Only messages that come from `iframe.contentWindow`, from
 * `options.origin`, with source `svc-embed`, direction `event` and a valid shape reach the
 * handlers; actions are posted with `options.origin` as target origin.
 */
export function connectSvcEmbed(
  iframe: { readonly contentWindow: { postMessage(message: unknown, targetOrigin: string): void } | null },
  options: ConnectSvcEmbedOptions,
): SvcEmbedConnection {
  const origin = normalizeTargetOrigin(options.origin);
  const win = options.window ?? globalThis.window;
  const handlers = new Map<string, Set<(event: SvcEvent) => void>>();
  const pending = new Map<string, { resolve: (r: ActionResultPayload) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  let destroyed = false;
  let resolveReady!: (event: ReadyEvent) => void;
  const ready = new Promise<ReadyEvent>((resolve) => {
    resolveReady = resolve;
  });

  const reject = (reason: HostRejectReason, event: MessageEvent) => options.onReject?.(reason, event);

  const listener = (event: MessageEvent) => {
    if (event.origin !== origin) return reject("origin", event);
    if (!iframe.contentWindow || event.source !== (iframe.contentWindow as unknown)) return reject("sender-window", event);
    const data = event.data as { source?: unknown; direction?: unknown } | null;
    if (typeof data !== "object" || data === null || data.source !== SVC_SOURCE) return reject("source", event);
    if (data.direction !== "event") return reject("direction", event);
    if (!isSvcEvent(data)) return reject("invalid-event", event);
    if (data.type === EVENT_TYPES.ready) resolveReady(data);
    if (data.type === EVENT_TYPES.actionResult) {
      const waiting = pending.get(data.payload.requestId);
      if (waiting) {
        pending.delete(data.payload.requestId);
        clearTimeout(waiting.timer);
        waiting.resolve(data.payload);
      }
    }
    for (const key of [data.type, "*"]) {
      for (const handler of handlers.get(key) ?? []) {
        // One failing host handler must not stop the others.
        try {
          handler(data);
        } catch (error) {
          if (options.onHandlerError) options.onHandlerError(error, data);
          else if (typeof globalThis.reportError === "function") globalThis.reportError(error);
          else
            setTimeout(() => {
              throw error;
            });
        }
      }
    }
  };
  win.addEventListener("message", listener);

  function post(action: SvcActionInput, requestId?: string): void {
    if (destroyed) throw new Error("connectSvcEmbed: connection destroyed");
    if (!isSvcActionType(action.type) || !isActionPayload(action.type, action.payload)) {
      throw new TypeError(`connectSvcEmbed: invalid action ${String(action.type)}`);
    }
    const target = iframe.contentWindow;
    if (!target) throw new Error("connectSvcEmbed: the iframe has no window yet");
    const id = requestId ?? action.requestId;
    target.postMessage(
      {
        source: SVC_SOURCE,
        direction: "action",
        type: action.type,
        payload: action.payload ?? {},
        timestamp: Date.now(),
        ...(id === undefined ? {} : { requestId: id }),
      },
      origin,
    );
  }

  return {
    on(type: string, handler: (event: never) => void) {
      const set = handlers.get(type) ?? new Set();
      handlers.set(type, set);
      const h = handler as (event: SvcEvent) => void;
      set.add(h);
      return () => {
        set.delete(h);
      };
    },
    ready,
    send: (action) => post(action),
    request(action, requestOptions = {}) {
      const requestId = nextRequestId();
      const timeoutMs = requestOptions.timeoutMs ?? 5000;
      return new Promise<ActionResultPayload>((resolve, rejectPromise) => {
        const timer = setTimeout(() => {
          pending.delete(requestId);
          rejectPromise(new SvcRequestError("timeout", `no action-result for ${action.type} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(requestId, { resolve, reject: rejectPromise, timer });
        try {
          post(action, requestId);
        } catch (error) {
          clearTimeout(timer);
          pending.delete(requestId);
          rejectPromise(error as Error);
        }
      });
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      win.removeEventListener("message", listener);
      handlers.clear();
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new SvcRequestError("destroyed", "connection destroyed"));
        pending.delete(id);
      }
    },
  } as SvcEmbedConnection;
}
