/**
 * What `svc host-check` installs in every frame of the page before its scripts run: a record of
 * the protocol messages that frame received (in the host: the embed's events, tagged with the
 * iframe they came from; in an embed: the host's actions), and of the page's `message` listeners.
 * Read back with `frame.evaluate(() => window.__svcHostCheck)`.
 */

/** One protocol message a frame received. */
export interface ObservedMessage {
  origin: string;
  type: string;
  requestId: string | null;
  payload: unknown;
  /** In the host: the index of the iframe (in document order) whose window posted it; else -1. */
  frame: number;
  at: number;
}

/** One `postMessage` the page made to a framed window, with the target origin it named. */
export interface ObservedPost {
  targetOrigin: string;
  type: string;
  frame: number;
}

export interface Observation {
  messages: ObservedMessage[];
  posts: ObservedPost[];
  /** `message` listeners the page added to its window (and `onmessage` set). */
  listeners: number;
  /** A random number fixed at the document's start: another value means the frame was reloaded. */
  marker: number;
}

declare global {
  interface Window {
    __svcHostCheck?: Observation;
  }
}

/** Runs in each frame (Playwright's `addInitScript`): self-contained (its helpers inside it), no imports. */
export function installObserver(): void {
  if (window.__svcHostCheck) return;
  const observation: Observation = { messages: [], posts: [], listeners: 0, marker: Math.random() };
  Object.defineProperty(window, "__svcHostCheck", { value: observation });
  recordPosts(observation);
  const add: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => void =
    EventTarget.prototype.addEventListener.bind(window);
  Object.defineProperty(window, "addEventListener", {
    configurable: true,
    writable: true,
    value(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
      if (type === "message" && listener) observation.listeners += 1;
      add(type, listener, options);
    },
  });
  const onmessage = Object.getOwnPropertyDescriptor(Window.prototype, "onmessage") ?? Object.getOwnPropertyDescriptor(window, "onmessage");
  if (onmessage?.set) {
    Object.defineProperty(window, "onmessage", {
      configurable: true,
      get: () => onmessage.get?.call(window),
      set: (value: unknown) => {
        if (typeof value === "function") observation.listeners += 1;
        onmessage.set!.call(window, value);
      },
    });
  }
  add(
    "message",
    (event: Event) => {
      if (!(event instanceof MessageEvent)) return;
      const data: unknown = event.data;
      if (!data || typeof data !== "object" || (data as { source?: unknown }).source !== "svc-embed") return;
      const message = data as { type?: unknown; requestId?: unknown; payload?: unknown };
      const frames = Array.from(document.querySelectorAll("iframe"));
      observation.messages.push({
        origin: event.origin,
        type: String(message.type),
        requestId: typeof message.requestId === "string" ? message.requestId : null,
        payload: message.payload ?? null,
        frame: frames.findIndex((f) => f.contentWindow === event.source),
        at: Date.now(),
      });
    },
    true,
  );

  /**
   * Records the target origin of each `postMessage` the page makes to an iframe's window: the
   * iframe's `contentWindow` answers a stand-in whose `postMessage` notes the call and passes it on,
   * and a message event's `source` answers the same stand-in, so the page's own
   * `event.source === iframe.contentWindow` checks hold as before.
   */
  function recordPosts(observation: Observation): void {
    const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "contentWindow");
    const source = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "source");
    if (!contentWindow?.get || !source?.get) return;
    const standIns = new WeakMap<object, Window>();
    const standIn = (frame: HTMLIFrameElement | null, real: Window): Window => {
      const known = standIns.get(real);
      if (known) return known;
      const post = (message: unknown, target?: unknown, transfer?: Transferable[]) => {
        const data = message as { source?: unknown; type?: unknown } | null;
        if (data && typeof data === "object" && data.source === "svc-embed") {
          const frames = Array.from(document.querySelectorAll("iframe"));
          const targetOrigin = typeof target === "string" ? target : ((target as WindowPostMessageOptions | undefined)?.targetOrigin ?? "/");
          observation.posts.push({
            targetOrigin,
            type: String(data.type),
            frame: frame ? frames.indexOf(frame) : frames.findIndex((f) => contentWindow.get!.call(f) === real),
          });
        }
        return typeof target === "string" ? real.postMessage(message, target, transfer) : real.postMessage(message, target as WindowPostMessageOptions);
      };
      const proxy = new Proxy(real, { get: (t, property) => (property === "postMessage" ? post : Reflect.get(t, property)) });
      standIns.set(real, proxy);
      return proxy;
    };
    Object.defineProperty(HTMLIFrameElement.prototype, "contentWindow", {
      configurable: true,
      get(this: HTMLIFrameElement) {
        const real = contentWindow.get!.call(this) as Window | null;
        return real ? standIn(this, real) : real;
      },
    });
    Object.defineProperty(MessageEvent.prototype, "source", {
      configurable: true,
      get(this: MessageEvent) {
        const real = source.get!.call(this) as MessageEventSource | null;
        if (!real || standIns.has(real)) return real ? standIns.get(real) : real;
        const frame = Array.from(document.querySelectorAll("iframe")).find((f) => contentWindow.get!.call(f) === real);
        return frame ? standIn(frame, real as Window) : real;
      },
    });
  }
}

/**
 * The observer as a script's text for `addInitScript`. Transpilers that keep function names
 * (esbuild's `keepNames`, as under tsx) wrap inner functions in a `__name` helper the page does
 * not have: the script brings a stand-in.
 */
export function observerScript(): { content: string } {
  return { content: `(() => { const __name = (f) => f; (${installObserver.toString()})(); })();` };
}
