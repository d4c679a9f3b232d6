/**
 * The declarative side of `<svc-embed>`: its attributes as reflecting properties (frameworks
 * that bind properties, such as Angular's `[session]`, reach the same attributes) and one typed
 * method per protocol action, each resolving with the embed's `action-result`.
 */
import { ACTION_TYPES, type ActionResultPayload, type ColorScheme, type EmbedTheme, type SetAiContextPayload, type SvcActionInput } from "../protocol";
import type { RequestOptions } from "./connect-svc-embed";

/** The attributes `<svc-embed>` observes. */
export const SVC_EMBED_ATTRIBUTES = ["src", "origin", "session", "theme", "locale", "label"] as const;
export type SvcEmbedAttributeName = (typeof SVC_EMBED_ATTRIBUTES)[number];

// Importing this module outside a browser (server-side rendering, type checks in Node) must not
// throw: there the base is an empty class, and `defineSvcEmbed` is never called.
const HTMLElementBase: typeof HTMLElement = typeof HTMLElement === "undefined" ? (class {} as never) : HTMLElement;

export abstract class SvcEmbedAttributes extends HTMLElementBase {
  /** Sends any action once the frame is ready and resolves with its `action-result`. */
  abstract request(action: SvcActionInput, options?: RequestOptions): Promise<ActionResultPayload>;

  /** The `src` attribute (also as a property, for frameworks that bind properties). */
  get src(): string | null {
    return this.getAttribute("src");
  }
  set src(value: string | null) {
    this.reflect("src", value);
  }
  get origin(): string | null {
    return this.getAttribute("origin");
  }
  set origin(value: string | null) {
    this.reflect("origin", value);
  }
  get session(): string | null {
    return this.getAttribute("session");
  }
  set session(value: string | null) {
    this.reflect("session", value);
  }
  /** `light`, `dark` or `auto`. */
  get theme(): string | null {
    return this.getAttribute("theme");
  }
  set theme(value: string | null) {
    this.reflect("theme", value);
  }
  get locale(): string | null {
    return this.getAttribute("locale");
  }
  set locale(value: string | null) {
    this.reflect("locale", value);
  }
  get label(): string | null {
    return this.getAttribute("label");
  }
  set label(value: string | null) {
    this.reflect("label", value);
  }

  private reflect(name: SvcEmbedAttributeName, value: string | null | undefined): void {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }

  /**
   * A framework may have set a property before the element was defined: it then sits on the
   * instance and hides the accessor; hand it to the accessor.
   */
  protected upgradeProperties(): void {
    for (const name of SVC_EMBED_ATTRIBUTES) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const value: unknown = Reflect.get(this, name);
      Reflect.deleteProperty(this, name);
      Reflect.set(this, name, value);
    }
  }

  /** `set-filter`: `f_<view>.<dimension>=<JSON>` (JSON `null` clears it). */
  setFilter(filterUrlParameter: string, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setFilter, payload: { filterUrlParameter } }, options);
  }
  /** `navigate`: an in-embed path starting with `/`. */
  navigate(path: string, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.navigate, payload: { path } }, options);
  }
  /** `refresh`: re-runs the queries, bypassing caches. */
  refresh(options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.refresh, payload: {} }, options);
  }
  /** `set-color-scheme` (the `theme` attribute does the same declaratively). */
  setColorScheme(scheme: ColorScheme, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setColorScheme, payload: { scheme } }, options);
  }
  /** `set-theme`: the brand theme (colour, font, radius). */
  setTheme(theme: EmbedTheme, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setTheme, payload: theme }, options);
  }
  /** `set-locale` (the `locale` attribute does the same declaratively). */
  setLocale(locale: string, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setLocale, payload: { locale } }, options);
  }
  /** `set-timezone`: an IANA name. */
  setTimezone(timezone: string, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setTimezone, payload: { timezone } }, options);
  }
  /** `set-session`: a fresh session id, without a reload (the `session` attribute does the same). */
  setSession(sessionId: string, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setSession, payload: { sessionId } }, options);
  }
  /** `set-ai-context` (chat): what the page is about; `applied` names what the chat's answers now carry, `rejected` why not. `{}` clears it. */
  setAiContext(context: SetAiContextPayload, options?: RequestOptions): Promise<ActionResultPayload> {
    return this.request({ type: ACTION_TYPES.setAiContext, payload: context }, options);
  }
}
