/**
 * Runtime guards, one per message variant. Each accepts exactly the shape of its type and
 * rejects everything else; payload keys the type does not name are tolerated so that a newer
 * peer can add optional fields without breaking an older one.
 */
import {
  ACTION_RESULT_STATUSES,
  AI_CONTEXT_LIMITS,
  ACTION_TYPES,
  AI_QUERY_STATUSES,
  COLOR_SCHEMES,
  DOWNLOAD_FORMATS,
  DOWNLOAD_TARGETS,
  EMBED_MODES,
  EVENT_TYPES,
  MAX_REQUEST_ID_LENGTH,
  SURFACES,
  SVC_ACTION_TYPES,
  SVC_EVENT_TYPES,
  SVC_SOURCE,
  type SvcActionType,
  type SvcEventType,
} from "./constants";
import type {
  ActionResultEvent,
  AiQueryEvent,
  DashboardLoadedEvent,
  DownloadEvent,
  DrilldownEvent,
  EmbedTheme,
  ErrorEvent,
  FiltersChangedEvent,
  NavigateAction,
  NavigateEvent,
  ReadyEvent,
  RefreshAction,
  ResizeEvent,
  SessionExpiringEvent,
  WidgetClickEvent,
  SetAiContextAction,
  SetColorSchemeAction,
  SetFilterAction,
  SetLocaleAction,
  SetSessionAction,
  SetThemeAction,
  SetTimezoneAction,
  SvcAction,
  SvcActionPayloads,
  SvcEvent,
  SvcEventPayloads,
  ViewEvent,
} from "./types";

type Guard<T> = (value: unknown) => value is T;
type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isString(value: unknown): value is string {
  return typeof value === "string";
}
function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
function isNonNegativeNumber(value: unknown): value is number {
  return isFiniteNumber(value) && value >= 0;
}
function oneOf<T extends string>(values: readonly T[]): Guard<T> {
  return (value: unknown): value is T => typeof value === "string" && (values as readonly string[]).includes(value);
}
function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || check(value);
}
function isStringOrNull(value: unknown): boolean {
  return value === null || typeof value === "string";
}

const isSurface = oneOf(SURFACES);
const isEventType = oneOf(SVC_EVENT_TYPES);
const isActionType = oneOf(SVC_ACTION_TYPES);

// ---------------------------------------------------------------------------------------------
// Payload guards

function isCapabilities(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.events) && value.events.every(isEventType) && Array.isArray(value.actions) && value.actions.every(isActionType);
}

const eventPayloadChecks: { [T in SvcEventType]: (p: Fields) => boolean } = {
  [EVENT_TYPES.ready]: (p) =>
    isStringOrNull(p.embedTenant) &&
    (p.deploymentId === null || isFiniteNumber(p.deploymentId)) &&
    oneOf(EMBED_MODES)(p.mode) &&
    isSurface(p.surface) &&
    optional(p.publicId, isString) &&
    isFiniteNumber(p.protocolVersion) &&
    isCapabilities(p.capabilities) &&
    optional(p.exportFormats, (v) => Array.isArray(v) && v.every(oneOf(DOWNLOAD_FORMATS))),
  [EVENT_TYPES.view]: (p) => isSurface(p.surface) && isString(p.path) && optional(p.publicId, isString) && optional(p.title, isString),
  [EVENT_TYPES.navigate]: (p) => isString(p.path) && optional(p.previousPath, isString),
  [EVENT_TYPES.dashboardLoaded]: (p) =>
    optional(p.publicId, isString) && optional(p.widgetCount, isNonNegativeNumber) && optional(p.loadDurationMs, isNonNegativeNumber),
  [EVENT_TYPES.download]: (p) =>
    oneOf(DOWNLOAD_FORMATS)(p.format) &&
    oneOf(DOWNLOAD_TARGETS)(p.target) &&
    optional(p.widgetId, isString) &&
    optional(p.title, isString) &&
    optional(p.rowCount, isNonNegativeNumber) &&
    // The event reports an export; it must never carry the exported data.
    !("rows" in p) &&
    !("data" in p),
  [EVENT_TYPES.drilldown]: (p) => isString(p.member) && optional(p.widgetId, isString),
  [EVENT_TYPES.aiQuery]: (p) => isString(p.query) && oneOf(AI_QUERY_STATUSES)(p.status) && optional(p.chatId, isString) && optional(p.agentId, isString),
  [EVENT_TYPES.error]: (p) =>
    isString(p.message) && optional(p.name, isString) && optional(p.context, isString) && optional(p.fatal, (v) => typeof v === "boolean"),
  [EVENT_TYPES.actionResult]: (p) => isString(p.requestId) && isString(p.action) && oneOf(ACTION_RESULT_STATUSES)(p.status) && optional(p.reason, isString),
  [EVENT_TYPES.filtersChanged]: (p) => Array.isArray(p.filterUrlParameters) && p.filterUrlParameters.every(isString),
  [EVENT_TYPES.resize]: (p) => isNonNegativeNumber(p.height) && isNonNegativeNumber(p.width),
  [EVENT_TYPES.sessionExpiring]: (p) => isFiniteNumber(p.expiresAt) && isNonNegativeNumber(p.secondsLeft),
  [EVENT_TYPES.widgetClick]: (p) =>
    isString(p.name) &&
    isString(p.widgetId) &&
    isString(p.member) &&
    isRecord(p.dimensions) &&
    Object.values(p.dimensions).every((v) => v === null || ["string", "number", "boolean"].includes(typeof v)),
};

function isColorString(value: unknown): boolean {
  return isString(value);
}

/** Shape check of an embedTheme: known keys must have their type; unknown keys are ignored. */
export function isEmbedTheme(value: unknown): value is EmbedTheme {
  if (!isRecord(value)) return false;
  if (!optional(value.primaryColor, isColorString)) return false;
  if (!optional(value.font, isString)) return false;
  if (!optional(value.borderRadius, (v) => isString(v) || isNonNegativeNumber(v))) return false;
  if (value.analyticsChat !== undefined) {
    const chat = value.analyticsChat;
    if (!isRecord(chat) || !optional(chat.backgroundColor, isColorString)) return false;
    if (chat.chatInput !== undefined) {
      const input = chat.chatInput;
      if (!isRecord(input)) return false;
      if (!optional(input.backgroundColor, isColorString) || !optional(input.borderColor, isColorString)) return false;
    }
  }
  if (value.chat !== undefined) {
    if (!isRecord(value.chat) || !optional(value.chat.inputColor, isColorString)) return false;
  }
  return true;
}

function isBoundedString(max: number): (value: unknown) => boolean {
  return (value) => isString(value) && value.length <= max;
}
function isContextScalar(value: unknown): boolean {
  return (isString(value) && value.length <= 10_000) || isFiniteNumber(value) || typeof value === "boolean";
}
function isAiContextFilter(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { member, operator, value: v } = value;
  return (
    isString(member) &&
    member.length > 0 &&
    member.length <= AI_CONTEXT_LIMITS.member &&
    optional(operator, isBoundedString(40)) &&
    optional(v, (x) => isContextScalar(x) || (Array.isArray(x) && x.length > 0 && x.length <= AI_CONTEXT_LIMITS.values && x.every(isContextScalar)))
  );
}
/** Shape and size of a `set-ai-context` payload; whether its members and views exist is the server's to say. */
function isAiContext(p: Fields): boolean {
  return (
    optional(p.title, isBoundedString(AI_CONTEXT_LIMITS.title)) &&
    optional(p.description, isBoundedString(AI_CONTEXT_LIMITS.description)) &&
    optional(p.filters, (v) => Array.isArray(v) && v.length <= AI_CONTEXT_LIMITS.filters && v.every(isAiContextFilter)) &&
    optional(p.views, (v) => Array.isArray(v) && v.length <= AI_CONTEXT_LIMITS.views && v.every((x) => isString(x) && x.length > 0 && x.length <= 255))
  );
}

const actionPayloadChecks: { [T in SvcActionType]: (p: Fields) => boolean } = {
  [ACTION_TYPES.setColorScheme]: (p) => oneOf(COLOR_SCHEMES)(p.scheme),
  [ACTION_TYPES.setTheme]: (p) => isEmbedTheme(p),
  [ACTION_TYPES.setLocale]: (p) => isString(p.locale) && p.locale.length > 0 && p.locale.length <= 100,
  [ACTION_TYPES.setFilter]: (p) => isString(p.filterUrlParameter) && p.filterUrlParameter.length > 0 && p.filterUrlParameter.length <= 20_000,
  [ACTION_TYPES.navigate]: (p) => isString(p.path) && p.path.length <= 2048,
  [ACTION_TYPES.refresh]: () => true,
  [ACTION_TYPES.setTimezone]: (p) => isString(p.timezone) && p.timezone.length > 0 && p.timezone.length <= 100,
  [ACTION_TYPES.setSession]: (p) => isString(p.sessionId) && p.sessionId.length > 0 && p.sessionId.length <= 512,
  [ACTION_TYPES.setAiContext]: isAiContext,
};

/** Payload guard of an event type. */
export function isEventPayload<T extends SvcEventType>(type: T, payload: unknown): payload is SvcEventPayloads[T] {
  return isRecord(payload) && eventPayloadChecks[type](payload);
}

/** Payload guard of an action type. `refresh` also accepts a missing payload. */
export function isActionPayload<T extends SvcActionType>(type: T, payload: unknown): payload is SvcActionPayloads[T] {
  if (type === ACTION_TYPES.refresh && payload === undefined) return true;
  return isRecord(payload) && actionPayloadChecks[type](payload);
}

// ---------------------------------------------------------------------------------------------
// Envelope guards

function isEventEnvelopeOf(data: unknown, type: SvcEventType): boolean {
  return (
    isRecord(data) &&
    data.source === SVC_SOURCE &&
    data.direction === "event" &&
    data.type === type &&
    isFiniteNumber(data.timestamp) &&
    isSurface(data.surface) &&
    isEventPayload(type, data.payload)
  );
}

function isValidRequestId(value: unknown): boolean {
  return isString(value) && value.length > 0 && value.length <= MAX_REQUEST_ID_LENGTH;
}

function actionEnvelopeProblem(data: Fields): "invalid-envelope" | null {
  if (!isFiniteNumber(data.timestamp)) return "invalid-envelope";
  // Actions never carry `surface` (spec 6.1); its presence marks a confused or forged sender.
  if ("surface" in data) return "invalid-envelope";
  if (data.requestId !== undefined && !isValidRequestId(data.requestId)) return "invalid-envelope";
  return null;
}

function isActionEnvelopeOf(data: unknown, type: SvcActionType): boolean {
  return (
    isRecord(data) &&
    data.source === SVC_SOURCE &&
    data.direction === "action" &&
    data.type === type &&
    actionEnvelopeProblem(data) === null &&
    isActionPayload(type, data.payload)
  );
}

const eventGuard =
  <E extends SvcEvent>(type: E["type"]): Guard<E> =>
  (value: unknown): value is E =>
    isEventEnvelopeOf(value, type);
const actionGuard =
  <A extends SvcAction>(type: A["type"]): Guard<A> =>
  (value: unknown): value is A =>
    isActionEnvelopeOf(value, type);

export const isReadyEvent = eventGuard<ReadyEvent>(EVENT_TYPES.ready);
export const isViewEvent = eventGuard<ViewEvent>(EVENT_TYPES.view);
export const isNavigateEvent = eventGuard<NavigateEvent>(EVENT_TYPES.navigate);
export const isDashboardLoadedEvent = eventGuard<DashboardLoadedEvent>(EVENT_TYPES.dashboardLoaded);
export const isDownloadEvent = eventGuard<DownloadEvent>(EVENT_TYPES.download);
export const isDrilldownEvent = eventGuard<DrilldownEvent>(EVENT_TYPES.drilldown);
export const isAiQueryEvent = eventGuard<AiQueryEvent>(EVENT_TYPES.aiQuery);
export const isErrorEvent = eventGuard<ErrorEvent>(EVENT_TYPES.error);
export const isActionResultEvent = eventGuard<ActionResultEvent>(EVENT_TYPES.actionResult);
export const isFiltersChangedEvent = eventGuard<FiltersChangedEvent>(EVENT_TYPES.filtersChanged);
export const isResizeEvent = eventGuard<ResizeEvent>(EVENT_TYPES.resize);
export const isSessionExpiringEvent = eventGuard<SessionExpiringEvent>(EVENT_TYPES.sessionExpiring);
export const isWidgetClickEvent = eventGuard<WidgetClickEvent>(EVENT_TYPES.widgetClick);

export const isSetColorSchemeAction = actionGuard<SetColorSchemeAction>(ACTION_TYPES.setColorScheme);
export const isSetThemeAction = actionGuard<SetThemeAction>(ACTION_TYPES.setTheme);
export const isSetLocaleAction = actionGuard<SetLocaleAction>(ACTION_TYPES.setLocale);
export const isSetFilterAction = actionGuard<SetFilterAction>(ACTION_TYPES.setFilter);
export const isNavigateAction = actionGuard<NavigateAction>(ACTION_TYPES.navigate);
export const isRefreshAction = actionGuard<RefreshAction>(ACTION_TYPES.refresh);
export const isSetTimezoneAction = actionGuard<SetTimezoneAction>(ACTION_TYPES.setTimezone);
export const isSetSessionAction = actionGuard<SetSessionAction>(ACTION_TYPES.setSession);
export const isSetAiContextAction = actionGuard<SetAiContextAction>(ACTION_TYPES.setAiContext);

/** True when `type` names a known event type. */
export function isSvcEventType(type: unknown): type is SvcEventType {
  return isEventType(type);
}

/** True when `type` names a known action type. */
export function isSvcActionType(type: unknown): type is SvcActionType {
  return isActionType(type);
}

/**
 * For hosts: true when `data` is a well-formed event of a known type. It does not check the
 * sender; a host must also compare `event.origin` and `event.source` (the host kit does).
 */
export function isSvcEvent(data: unknown): data is SvcEvent {
  return isRecord(data) && isEventType(data.type) && isEventEnvelopeOf(data, data.type);
}

/** True when `data` is a well-formed action of a known type. */
export function isSvcAction(data: unknown): data is SvcAction {
  return parseInboundAction(data).ok;
}

/** Why an inbound message is not a valid action, in the order the checks run. */
export type InboundActionRejection = "not-svc-message" | "wrong-direction" | "unknown-type" | "invalid-envelope" | "invalid-payload";

export type ParseInboundActionResult =
  | { ok: true; action: SvcAction }
  | {
      ok: false;
      reason: InboundActionRejection;
      /** The `requestId` the message carried, when it was a well-formed one. */
      requestId?: string;
      /** The `type` the message carried, when it was a string. */
      type?: string;
    };

/**
 * Validates message data as an action: object with source `svc-embed`, direction `action`,
 * known type, valid envelope, valid payload, checked in that order. The sender checks
 * (window, origin) are the caller's job and come first. A `refresh` without payload is
 * returned with `payload: {}`.
 */
export function parseInboundAction(data: unknown): ParseInboundActionResult {
  if (!isRecord(data) || data.source !== SVC_SOURCE) return { ok: false, reason: "not-svc-message" };
  const requestId = isValidRequestId(data.requestId) ? (data.requestId as string) : undefined;
  const type = isString(data.type) ? data.type : undefined;
  const fail = (reason: InboundActionRejection): ParseInboundActionResult => ({
    ok: false,
    reason,
    ...(requestId === undefined ? {} : { requestId }),
    ...(type === undefined ? {} : { type }),
  });
  if (data.direction !== "action") return fail("wrong-direction");
  if (!isActionType(data.type)) return fail("unknown-type");
  if (actionEnvelopeProblem(data) !== null) return fail("invalid-envelope");
  if (!isActionPayload(data.type, data.payload)) return fail("invalid-payload");
  const action = {
    source: SVC_SOURCE,
    direction: "action",
    type: data.type,
    payload: data.payload === undefined ? {} : data.payload,
    timestamp: data.timestamp,
    ...(requestId === undefined ? {} : { requestId }),
  } as SvcAction;
  return { ok: true, action };
}
