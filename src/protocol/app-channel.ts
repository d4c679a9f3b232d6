/**
 * The dashboard app channel: messages between a dashboard of kind `APP` (its code runs in a
 * sandboxed frame inside the dashboard surface) and the surface. Not the host protocol: these
 * never leave the embed, and the surface turns the app's requests into the spec's events.
 *
 * The channel is a `MessagePort`, handed over once: the app's runtime (the first script of the
 * app's document) creates a `MessageChannel` and posts `app:connect` with one port to its parent,
 * at the platform's exact origin. The surface takes it only from the app frame's own window, only
 * with exactly that shape and one port, and only once per frame: a second document in the frame
 * (or a second `app:connect`) gets no channel. Every other message, both ways, goes over the port;
 * nothing the frame posts to the embed's window besides that one `app:connect` is read.
 *
 * Every message carries `source: "svc-app"`; over the port, the surface accepts only the exact
 * shapes of `AppMessage` below.
 */

export const APP_CHANNEL_SOURCE = "svc-app" as const;

/**
 * App → parent window, once, with the app's end of a `MessageChannel` in `event.ports[0]`: the
 * only message of the channel that goes through `window.postMessage`.
 */
export const APP_CONNECT_TYPE = "app:connect" as const;

/** App → surface, over the port. */
export const APP_MESSAGE_TYPES = {
  /** The app has drawn its first view: `dashboard-loaded` may go out. */
  loaded: "app:loaded",
  /** Run one of the dashboard's reports with the current dashboard filters. */
  query: "app:query",
  /** Run one of the dashboard's Python reports on the platform (`python-run`) with the current filters. */
  python: "app:python",
  /** Set (or with `filter: null` clear) the dashboard filter of one member. */
  setFilter: "app:set-filter",
  /** Report an error: becomes `svc:event:error` with context `app`. */
  error: "app:error",
  /** The viewer drilled into a measure: becomes `svc:event:drilldown`. */
  drilldown: "app:drilldown",
  /** The app's content height in CSS pixels: the surface sizes the frame to it. */
  size: "app:size",
} as const;

/** Surface → app, over the port. */
export const SURFACE_MESSAGE_TYPES = {
  /** Scheme, theme, locale, filters and the reports the app may ask for; sent at start and on every change. */
  context: "surface:context",
  /** The answer to one `app:query`. */
  result: "surface:result",
  /**
   * The rows of a report the app's code names, run before the app asked, with the filters of the
   * context sent before it: the app's next `query` of that report takes them instead of asking.
   * A later context drops them.
   */
  preloaded: "surface:preloaded",
} as const;

export const MAX_APP_REQUEST_ID_LENGTH = 64;
export const MAX_APP_TEXT_LENGTH = 2000;
/**
 * An app's error message and drilldown value reach the host page (as `svc:event:error` and
 * `svc:event:drilldown`, marked `source: "app"`): at most this many characters each.
 */
export const MAX_APP_EVENT_TEXT_LENGTH = 500;

export interface AppReportInfo {
  reportId: number;
  name: string | null;
  title: string | null;
  kind: string | null;
}

export interface AppFilterValue {
  operator: string;
  value?: string | number | boolean | (string | number | boolean)[];
}

/** The handshake: posted to the parent window with one `MessagePort` transferred. */
export interface AppConnectMessage {
  source: typeof APP_CHANNEL_SOURCE;
  type: typeof APP_CONNECT_TYPE;
}

export type AppMessage =
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.loaded }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.query; requestId: string; reportId: number }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.python; requestId: string; reportId: number }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.setFilter; member: string; filter: AppFilterValue | null }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.error; message: string; name?: string }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.size; height: number }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof APP_MESSAGE_TYPES.drilldown; member: string; value?: string | number | boolean | null };

export type SurfaceMessage =
  | {
      source: typeof APP_CHANNEL_SOURCE;
      type: typeof SURFACE_MESSAGE_TYPES.context;
      scheme: "light" | "dark";
      theme: Record<string, unknown>;
      locale: string;
      filters: Record<string, AppFilterValue>;
      reports: AppReportInfo[];
    }
  | {
      source: typeof APP_CHANNEL_SOURCE;
      type: typeof SURFACE_MESSAGE_TYPES.result;
      requestId: string;
      ok: true;
      rows: Record<string, unknown>[];
      columns: string[];
      /** Answers to `app:python`: what the code printed and showed. */
      python?: { stdout: string; table?: Record<string, unknown>[]; html?: string; image?: string };
    }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof SURFACE_MESSAGE_TYPES.result; requestId: string; ok: false; error: string }
  | { source: typeof APP_CHANNEL_SOURCE; type: typeof SURFACE_MESSAGE_TYPES.preloaded; reportId: number; rows: Record<string, unknown>[]; columns: string[] };

const MEMBER = /^[_a-zA-Z][_a-zA-Z0-9]*\.[_a-zA-Z][_a-zA-Z0-9]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isShortText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}
function isScalar(value: unknown): value is string | number | boolean {
  return (
    (typeof value === "string" && value.length <= MAX_APP_TEXT_LENGTH) || (typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean"
  );
}
function isFilterValue(value: unknown): value is AppFilterValue {
  if (!isRecord(value) || !isShortText(value.operator, 40)) return false;
  if (value.value === undefined) return true;
  return isScalar(value.value) || (Array.isArray(value.value) && value.value.length > 0 && value.value.length <= 200 && value.value.every(isScalar));
}
function hasOnly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((k) => keys.includes(k));
}

/**
 * Exactly the handshake: `{ source: "svc-app", type: "app:connect" }` and nothing else. The
 * caller also checks the sender (the app frame's own window), that exactly one port came with it,
 * and that the frame has not connected before.
 */
export function isAppConnectMessage(value: unknown): value is AppConnectMessage {
  return isRecord(value) && value.source === APP_CHANNEL_SOURCE && value.type === APP_CONNECT_TYPE && hasOnly(value, ["source", "type"]);
}

/** Exactly one of the app's messages (over the port), or false: unknown types, extra keys and bad fields are refused. */
export function isAppMessage(value: unknown): value is AppMessage {
  if (!isRecord(value) || value.source !== APP_CHANNEL_SOURCE) return false;
  switch (value.type) {
    case APP_MESSAGE_TYPES.loaded:
      return hasOnly(value, ["source", "type"]);
    case APP_MESSAGE_TYPES.query:
    case APP_MESSAGE_TYPES.python:
      return (
        hasOnly(value, ["source", "type", "requestId", "reportId"]) &&
        isShortText(value.requestId, MAX_APP_REQUEST_ID_LENGTH) &&
        typeof value.reportId === "number" &&
        Number.isSafeInteger(value.reportId) &&
        value.reportId > 0
      );
    case APP_MESSAGE_TYPES.setFilter:
      return (
        hasOnly(value, ["source", "type", "member", "filter"]) &&
        typeof value.member === "string" &&
        value.member.length <= 255 &&
        MEMBER.test(value.member) &&
        (value.filter === null || isFilterValue(value.filter))
      );
    case APP_MESSAGE_TYPES.error:
      return (
        hasOnly(value, ["source", "type", "message", "name"]) &&
        isShortText(value.message, MAX_APP_EVENT_TEXT_LENGTH) &&
        (value.name === undefined || isShortText(value.name, 100))
      );
    case APP_MESSAGE_TYPES.drilldown:
      return (
        hasOnly(value, ["source", "type", "member", "value"]) &&
        typeof value.member === "string" &&
        value.member.length <= 255 &&
        MEMBER.test(value.member) &&
        (value.value === undefined ||
          value.value === null ||
          (isScalar(value.value) && (typeof value.value !== "string" || value.value.length <= MAX_APP_EVENT_TEXT_LENGTH)))
      );
    case APP_MESSAGE_TYPES.size:
      return hasOnly(value, ["source", "type", "height"]) && typeof value.height === "number" && Number.isFinite(value.height) && value.height >= 0;
    default:
      return false;
  }
}

/** A surface message as the app receives it (for app authors' own checks and the tests). */
export function isSurfaceMessage(value: unknown): value is SurfaceMessage {
  return (
    isRecord(value) &&
    value.source === APP_CHANNEL_SOURCE &&
    Object.values(SURFACE_MESSAGE_TYPES).includes(value.type as (typeof SURFACE_MESSAGE_TYPES)[keyof typeof SURFACE_MESSAGE_TYPES])
  );
}
