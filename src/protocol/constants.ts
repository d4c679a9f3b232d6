/**
 * Wire constants of the embed message protocol (spec section 6 plus the additive extensions of
 * decisions.md). Hosts may import this file; it has no dependencies.
 */

/** Value of `source` on every message in both directions. */
export const SVC_SOURCE = "svc-embed" as const;

/**
 * Version of the message protocol, reported in `ready.payload.protocolVersion`. It is an
 * integer that only changes on a breaking change; additive changes show up in
 * `ready.payload.capabilities` instead, so hosts feature-detect by capability.
 */
export const PROTOCOL_VERSION = 1 as const;

/**
 * `report` (extension): one report of a published dashboard on its own (`/embed/report/{publicId}`,
 * `/embed/d/{deploymentId}/report/{reportId}`), with the dashboard's filters, exports and drill.
 */
export const SURFACES = ["dashboard", "app", "chat", "report"] as const;
export const DIRECTIONS = ["event", "action"] as const;
export const EMBED_MODES = ["signed", "private"] as const;
export const COLOR_SCHEMES = ["light", "dark", "auto"] as const;
export const DOWNLOAD_FORMATS = ["csv", "xlsx", "png", "pdf"] as const;
export const DOWNLOAD_TARGETS = ["widget", "dashboard"] as const;
export const AI_QUERY_STATUSES = ["submitted", "completed", "error"] as const;
export const ACTION_RESULT_STATUSES = ["applied", "ignored", "rejected"] as const;

/** Event type names (embed to host). */
export const EVENT_TYPES = {
  ready: "svc:event:ready",
  view: "svc:event:view",
  navigate: "svc:event:navigate",
  dashboardLoaded: "svc:event:dashboard-loaded",
  download: "svc:event:download",
  drilldown: "svc:event:drilldown",
  aiQuery: "svc:event:ai-query",
  error: "svc:event:error",
  // Extensions (decisions.md "Protocol extensions").
  actionResult: "svc:event:action-result",
  filtersChanged: "svc:event:filters-changed",
  resize: "svc:event:resize",
  sessionExpiring: "svc:event:session-expiring",
  widgetClick: "svc:event:widget-click",
} as const;

/** Action type names (host to embed). */
export const ACTION_TYPES = {
  setColorScheme: "svc:action:set-color-scheme",
  setTheme: "svc:action:set-theme",
  setLocale: "svc:action:set-locale",
  setFilter: "svc:action:set-filter",
  navigate: "svc:action:navigate",
  refresh: "svc:action:refresh",
  // Extensions (decisions.md "Protocol extensions").
  setTimezone: "svc:action:set-timezone",
  setSession: "svc:action:set-session",
  setAiContext: "svc:action:set-ai-context",
} as const;

/** Surfaces that show a dashboard's widgets: they have its filters, exports and drill. */
export const WIDGET_SURFACES = ["dashboard", "report"] as const;

export type SvcEventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];
export type SvcActionType = (typeof ACTION_TYPES)[keyof typeof ACTION_TYPES];

/** Every event type, spec events first, in a stable order. */
export const SVC_EVENT_TYPES: readonly SvcEventType[] = Object.values(EVENT_TYPES);
/** Every action type, spec actions first, in a stable order. */
export const SVC_ACTION_TYPES: readonly SvcActionType[] = Object.values(ACTION_TYPES);

/**
 * Events that only the surfaces showing a dashboard's widgets emit (spec 6.2 "Surfaces" column:
 * `dashboard`; the `report` extension emits them too, except `dashboard-loaded`).
 */
export const DASHBOARD_ONLY_EVENT_TYPES: readonly SvcEventType[] = [
  EVENT_TYPES.dashboardLoaded,
  EVENT_TYPES.download,
  EVENT_TYPES.drilldown,
  EVENT_TYPES.filtersChanged,
];

/**
 * Stable values of `svc:event:error` `payload.name`. Hosts switch on these; the list only
 * grows. An error without a more specific cause carries no `name`.
 *
 * - `SessionExpired`: the embed token expired; always `fatal: true`.
 * - `SessionInvalid`: the session id is unknown, already used or revoked.
 * - `Forbidden`: the viewer may not see this resource (or export it).
 * - `NotFound`: the dashboard, report or path does not exist.
 * - `QueryFailed`: a widget's query failed on the server or in the data source.
 * - `RenderFailed`: a widget or the surface failed to render.
 * - `NetworkError`: the platform could not be reached.
 * - `ConfigInvalid`: the dashboard configuration or embed parameters are invalid.
 * - `ExportFailed`: a download could not be produced.
 * - `RateLimited`: the platform asked the embed to slow down.
 * - `AiQueryFailed`: a natural-language query failed.
 */
export const SVC_ERROR_NAMES = [
  "SessionExpired",
  "SessionInvalid",
  "Forbidden",
  "NotFound",
  "QueryFailed",
  "RenderFailed",
  "NetworkError",
  "ConfigInvalid",
  "ExportFailed",
  "RateLimited",
  "AiQueryFailed",
] as const;

export type SvcErrorName = (typeof SVC_ERROR_NAMES)[number];

/** Upper bounds of a `set-ai-context` payload: the server refuses more (docs/ai.md "AI context from the host"). */
export const AI_CONTEXT_LIMITS = { title: 200, description: 1000, filters: 20, views: 20, member: 255, values: 100 } as const;

/** Upper bound of a `requestId`; longer ids are an invalid envelope. */
export const MAX_REQUEST_ID_LENGTH = 128;
