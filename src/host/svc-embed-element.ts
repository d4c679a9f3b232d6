/**
 * `<svc-embed>`: a custom element that frames an svc surface and speaks the protocol for the
 * page, with `connectSvcEmbed` doing every check (docs/embedding.md "Web component"). It owns
 * its iframe, re-dispatches each protocol event as a DOM `CustomEvent` (`svc-ready`, …), sizes
 * itself from `resize`, applies `theme`, `locale` and `session` changes live, and answers each
 * action method with the embed's `action-result`.
 */
import { ACTION_TYPES, COLOR_SCHEMES, EVENT_TYPES, type ActionResultPayload, type ReadyEvent, type SvcActionInput, type SvcEvent } from "../protocol";
import { connectSvcEmbed, SvcRequestError, type RequestOptions, type SvcEmbedConnection } from "./connect-svc-embed";
import { SVC_EMBED_ATTRIBUTES, SvcEmbedAttributes } from "./svc-embed-attributes";
import { toDomEvent, type SvcEmbedEventMap } from "./svc-embed-events";
import { resolveSvcEmbedTarget } from "./svc-embed-url";

/** The iframe's `sandbox`: what the embed needs (its own origin, scripts, forms, exports, links opening in a new tab) and no more; never `allow-top-navigation`. */
export const SVC_EMBED_SANDBOX = "allow-scripts allow-same-origin allow-forms allow-downloads allow-popups allow-popups-to-escape-sandbox";
/** The iframe's `allow` (permissions policy). */
export const SVC_EMBED_ALLOW = "clipboard-write; fullscreen";

const STYLE =
  ":host{display:block}iframe{display:block;box-sizing:border-box;width:100%;height:var(--svc-embed-initial-height,400px);min-height:inherit;border:0}";

interface Deferred {
  promise: Promise<ReadyEvent>;
  resolve(event: ReadyEvent): void;
  reject(error: Error): void;
  settled: boolean;
}

function deferred(): Deferred {
  const d = { settled: false } as Deferred;
  d.promise = new Promise<ReadyEvent>((resolve, reject) => {
    d.resolve = (event) => ((d.settled = true), resolve(event));
    d.reject = (error) => ((d.settled = true), reject(error));
  });
  // Nobody may be waiting; a rejection nobody awaits is not an error of the page.
  d.promise.catch(() => undefined);
  return d;
}

function reportHostError(error: Error): void {
  if (typeof globalThis.reportError === "function") globalThis.reportError(error);
  else console.error(error);
}

export class SvcEmbedElement extends SvcEmbedAttributes {
  static readonly observedAttributes: readonly string[] = SVC_EMBED_ATTRIBUTES;

  #iframe: HTMLIFrameElement | null = null;
  #connection: SvcEmbedConnection | null = null;
  #ready: Deferred | null = null;
  #readyEvent: ReadyEvent | null = null;
  /** The `locale` and `session` the current frame's URL carried. */
  #loaded: { locale: string | null; session: string | null } = { locale: null, session: null };
  #viewTitle = "";
  #loadScheduled = false;

  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML = `<style>${STYLE}</style>`;
  }

  /** The frame this element owns (in its open shadow root), once connected. */
  get iframe(): HTMLIFrameElement | null {
    return this.#iframe;
  }

  /**
   * Resolves with the current frame's `ready` event (also when it came before this call);
   * rejects when the element is removed or the surface fails before `ready` (a fatal `error`).
   */
  get ready(): Promise<ReadyEvent> {
    return this.#ready?.promise ?? Promise.reject(new SvcRequestError("destroyed", "<svc-embed> is not connected"));
  }

  connectedCallback(): void {
    this.upgradeProperties();
    this.#scheduleLoad();
  }

  disconnectedCallback(): void {
    this.#loadScheduled = false;
    this.#connection?.destroy();
    this.#connection = null;
    this.#ready?.reject(new SvcRequestError("destroyed", "<svc-embed> was removed"));
    this.#ready = null;
    this.#readyEvent = null;
    this.#iframe?.remove();
    this.#iframe = null;
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value || !this.isConnected) return;
    if (name === "label") return this.#applyTitle();
    if (name === "src" || name === "origin") return this.#scheduleLoad();
    // Before `ready` the frame cannot take actions: a new session loads anew; theme and locale
    // are applied once it is ready.
    if (!this.#readyEvent) return name === "session" ? this.#scheduleLoad() : undefined;
    if (name === "session") return this.#swapSession(value);
    if (name === "theme") return this.#applyTheme();
    if (name === "locale" && value) this.#internal({ type: ACTION_TYPES.setLocale, payload: { locale: value } });
  }

  /** Sends any action once the frame is ready and resolves with its `action-result`. */
  override async request(action: SvcActionInput, options?: RequestOptions): Promise<ActionResultPayload> {
    await this.ready;
    if (!this.#connection) throw new SvcRequestError("destroyed", "<svc-embed> is not connected");
    return this.#connection.request(action, options);
  }

  /** One load per task, however many attributes a framework sets one after another. */
  #scheduleLoad(): void {
    if (!this.#ready || this.#ready.settled) this.#ready = deferred();
    if (this.#loadScheduled) return;
    this.#loadScheduled = true;
    queueMicrotask(() => {
      if (!this.#loadScheduled || !this.isConnected) return;
      this.#loadScheduled = false;
      this.#load();
    });
  }

  #load(): void {
    this.#connection?.destroy();
    this.#connection = null;
    this.#readyEvent = null;
    this.#viewTitle = "";
    const [src, origin, session, locale] = (["src", "origin", "session", "locale"] as const).map((name) => this.getAttribute(name));
    const target = resolveSvcEmbedTarget(
      { src: src ?? null, origin: origin ?? null, session: session ?? null, locale: locale ?? null },
      this.ownerDocument.baseURI,
    );
    if (!target.ok) {
      this.#iframe?.remove();
      this.#iframe = null;
      if (!src) return; // Not yet: methods wait for a src.
      const error = new TypeError(`<svc-embed>: ${target.reason}; nothing loaded`);
      reportHostError(error);
      this.#ready?.reject(error);
      return;
    }
    const iframe = this.#iframe ?? this.ownerDocument.createElement("iframe");
    iframe.setAttribute("sandbox", SVC_EMBED_SANDBOX);
    iframe.setAttribute("allow", SVC_EMBED_ALLOW);
    if (!this.#iframe) this.shadowRoot?.append(iframe);
    this.#iframe = iframe;
    this.#applyTitle();
    const connection = connectSvcEmbed(iframe, { origin: target.origin, window: this.ownerDocument.defaultView ?? undefined });
    connection.on("*", (event) => this.#onEvent(event));
    this.#connection = connection;
    this.#loaded = { locale: locale ?? null, session: session ?? null };
    iframe.src = target.url;
  }

  #onEvent(event: SvcEvent): void {
    if (event.type === EVENT_TYPES.ready) this.#readyEvent = event;
    if (event.type === EVENT_TYPES.view && event.payload.title) this.#viewTitle = event.payload.title;
    if (event.type === EVENT_TYPES.view) this.#applyTitle();
    if (event.type === EVENT_TYPES.resize) this.#applyHeight(event.payload.height);
    if (event.type === EVENT_TYPES.error && event.payload.fatal && !this.#readyEvent) this.#ready?.reject(new Error(event.payload.message));
    this.dispatchEvent(toDomEvent(event));
    if (event.type !== EVENT_TYPES.ready) return;
    this.#ready?.resolve(event);
    // What changed (or was set) while the frame loaded.
    if (this.getAttribute("theme")) this.#applyTheme();
    const locale = this.getAttribute("locale");
    if (locale && locale !== this.#loaded.locale) this.#internal({ type: ACTION_TYPES.setLocale, payload: { locale } });
  }

  /** The frame is as tall as the embed's content; the content box does not depend on the frame, so this cannot loop. */
  #applyHeight(height: number): void {
    const px = `${Math.ceil(height)}px`;
    if (this.#iframe && height > 0 && this.#iframe.style.height !== px) this.#iframe.style.height = px;
  }

  #applyTitle(): void {
    this.#iframe?.setAttribute("title", this.getAttribute("label") ?? this.#viewTitle);
  }

  #applyTheme(): void {
    const theme = this.getAttribute("theme");
    const scheme = COLOR_SCHEMES.find((s) => s === theme);
    if (scheme) this.#internal({ type: ACTION_TYPES.setColorScheme, payload: { scheme } });
    else if (theme) reportHostError(new TypeError(`<svc-embed>: theme must be one of ${COLOR_SCHEMES.join(", ")}, not "${theme}"`));
  }

  #swapSession(sessionId: string | null): void {
    const swappable = this.#readyEvent?.payload.capabilities.actions.includes(ACTION_TYPES.setSession);
    if (sessionId === this.#loaded.session) return;
    if (!sessionId || !swappable) return this.#scheduleLoad();
    this.#loaded.session = sessionId;
    const reloadUnlessApplied = (status?: string) => {
      if (status !== "applied" && this.getAttribute("session") === sessionId) this.#scheduleLoad();
    };
    this.#connection?.request({ type: ACTION_TYPES.setSession, payload: { sessionId } }).then(
      (r) => reloadUnlessApplied(r.status),
      () => reloadUnlessApplied(),
    );
  }

  // Typed listeners for the svc-* events (the DOM's own events keep their types).
  override addEventListener<K extends keyof SvcEmbedEventMap>(
    type: K,
    listener: (this: SvcEmbedElement, event: SvcEmbedEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: SvcEmbedElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener, options);
  }
  override removeEventListener<K extends keyof SvcEmbedEventMap>(
    type: K,
    listener: (this: SvcEmbedElement, event: SvcEmbedEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: SvcEmbedElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void {
    super.removeEventListener(type, listener, options);
  }

  /** An action the element sends for an attribute; its result reaches the page as `svc-action-result`. */
  #internal(action: SvcActionInput): void {
    this.#connection?.request(action).catch(() => undefined);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "svc-embed": SvcEmbedElement;
  }
}

/**
 * Registers `<svc-embed>` (or `name`, a subclass per extra name) with the page's custom
 * element registry; calling it again is harmless. Returns the registered class.
 */
export function defineSvcEmbed(name = "svc-embed", registry: CustomElementRegistry = customElements): CustomElementConstructor {
  const existing = registry.get(name);
  if (existing) return existing;
  const constructor = name === "svc-embed" ? SvcEmbedElement : class extends SvcEmbedElement {};
  registry.define(name, constructor);
  return constructor;
}
