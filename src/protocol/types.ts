/**
 * Message types of the embed protocol: the envelope of spec 6.1, every event of 6.2 and every
 * action of 6.3 as tagged unions keyed by `type`, plus the additive extensions of decisions.md.
 */
import type {
  ACTION_RESULT_STATUSES,
  ACTION_TYPES,
  AI_QUERY_STATUSES,
  COLOR_SCHEMES,
  DOWNLOAD_FORMATS,
  DOWNLOAD_TARGETS,
  EMBED_MODES,
  EVENT_TYPES,
  SURFACES,
  SvcActionType,
  SvcErrorName,
  SvcEventType,
  SVC_SOURCE,
} from "./constants";

export type { SvcActionType, SvcErrorName, SvcEventType } from "./constants";

export type Surface = (typeof SURFACES)[number];
export type EmbedMode = (typeof EMBED_MODES)[number];
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];
export type DownloadTarget = (typeof DOWNLOAD_TARGETS)[number];
export type AiQueryStatus = (typeof AI_QUERY_STATUSES)[number];
export type ActionResultStatus = (typeof ACTION_RESULT_STATUSES)[number];

// ---------------------------------------------------------------------------------------------
// Event payloads (6.2)

export interface ProtocolCapabilities {
  /** Event types this embed may emit. */
  events: SvcEventType[];
  /** Action types this embed applies. */
  actions: SvcActionType[];
}

export interface ReadyPayload {
  embedTenant: string | null;
  deploymentId: number | null;
  mode: EmbedMode;
  surface: Surface;
  /** The dashboard's public id (dashboard surface), or the report's (report surface at `/embed/report/{publicId}`). */
  publicId?: string;
  /** Extension: see PROTOCOL_VERSION. */
  protocolVersion: number;
  /** Extension: what this embed emits and applies. */
  capabilities: ProtocolCapabilities;
  /**
   * Extension: the export formats this embed may offer: the session's `settings.allowExport`
   * grant when the URL says `allowExport=true`, else none (`[]`). A dashboard that restricts data
   * download offers none of them. Absent where the embed has not read the grant (private mode).
   */
  exportFormats?: DownloadFormat[];
}

export interface ViewPayload {
  surface: Surface;
  /** In-embed route path. */
  path: string;
  publicId?: string;
  title?: string;
}

export interface NavigatePayload {
  path: string;
  previousPath?: string;
}

export interface DashboardLoadedPayload {
  publicId?: string;
  widgetCount?: number;
  /** Mount to all widgets loaded. */
  loadDurationMs?: number;
}

export interface DownloadPayload {
  format: DownloadFormat;
  target: DownloadTarget;
  /** When target is `widget`. */
  widgetId?: string;
  title?: string;
  /** For `csv` and `xlsx`. The event never carries the rows themselves. */
  rowCount?: number;
}

export interface DrilldownPayload {
  /** Fully-qualified measure. */
  member: string;
  value?: unknown;
  widgetId?: string;
  /** `"app"`: sent by a dashboard app's code (its own member and value), not by a widget of the platform. */
  source?: "app";
}

export interface AiQueryPayload {
  query: string;
  status: AiQueryStatus;
  chatId?: string;
  agentId?: string;
}

export interface ErrorPayload {
  message: string;
  /** One of SVC_ERROR_NAMES when the cause is known; hosts must tolerate other strings. */
  name?: SvcErrorName | (string & {});
  context?: string;
  /** `true` when the whole surface went down. */
  fatal?: boolean;
  /** `"app"`: the name and message are a dashboard app's own text (`svc.error`, its uncaught errors), not the platform's. */
  source?: "app";
}

/** Extension: answer to an action that carried a `requestId`. */
export interface ActionResultPayload {
  requestId: string;
  /** The action type the host sent (as sent, also when it was not a known type). */
  action: SvcActionType | (string & {});
  status: ActionResultStatus;
  /** Machine-readable reason for `ignored` and `rejected`; may be present for `applied`. */
  reason?: string;
}

/** Extension: the dashboard's filters, each in the `f_<view>.<dimension>=<JSON>` form. */
export interface FiltersChangedPayload {
  filterUrlParameters: string[];
}

/** Extension: content size in CSS pixels. */
export interface ResizePayload {
  height: number;
  width: number;
}

/** Extension: sent before the embed token expires (signed mode). */
export interface SessionExpiringPayload {
  /** Epoch milliseconds. */
  expiresAt: number;
  secondsLeft: number;
}

/** A dimension value of a clicked row: what the query answered, or null. */
export type ClickedValue = string | number | boolean | null;

/**
 * Extension: a click on a dashboard widget whose click behaviour is a host event (the widget's
 * `config.click`, `{ action: "event", name }`): no drilldown opens, the host acts.
 */
export interface WidgetClickPayload {
  /** The name the creator gave the click. */
  name: string;
  widgetId: string;
  /** The clicked member (a measure) and its value. */
  member: string;
  value?: unknown;
  /** The clicked row's dimensions: member → value (time dimensions as `<member>.<granularity>`). */
  dimensions: Record<string, ClickedValue>;
}

export interface SvcEventPayloads {
  [EVENT_TYPES.ready]: ReadyPayload;
  [EVENT_TYPES.view]: ViewPayload;
  [EVENT_TYPES.navigate]: NavigatePayload;
  [EVENT_TYPES.dashboardLoaded]: DashboardLoadedPayload;
  [EVENT_TYPES.download]: DownloadPayload;
  [EVENT_TYPES.drilldown]: DrilldownPayload;
  [EVENT_TYPES.aiQuery]: AiQueryPayload;
  [EVENT_TYPES.error]: ErrorPayload;
  [EVENT_TYPES.actionResult]: ActionResultPayload;
  [EVENT_TYPES.filtersChanged]: FiltersChangedPayload;
  [EVENT_TYPES.resize]: ResizePayload;
  [EVENT_TYPES.sessionExpiring]: SessionExpiringPayload;
  [EVENT_TYPES.widgetClick]: WidgetClickPayload;
}

// ---------------------------------------------------------------------------------------------
// Action payloads (6.3)

/**
 * Brand theme, the same shape the session request accepts. Every field is optional; unknown
 * keys are ignored by the embed.
 */
export interface EmbedTheme {
  primaryColor?: string;
  font?: string;
  /** CSS length, or a number of pixels. */
  borderRadius?: string | number;
  analyticsChat?: {
    backgroundColor?: string;
    chatInput?: { backgroundColor?: string; borderColor?: string };
  };
  chat?: { inputColor?: string };
}

export interface SetColorSchemePayload {
  scheme: ColorScheme;
}

export type SetThemePayload = EmbedTheme;

export interface SetLocalePayload {
  /** Full code, short code or regional variant. */
  locale: string;
}

export interface SetFilterPayload {
  /** `f_<semantic_view>.<dimension>=<JSON>`. */
  filterUrlParameter: string;
}

export interface NavigateActionPayload {
  /** In-embed path. */
  path: string;
}

/** `refresh` takes no payload; hosts may send `{}` or leave it out. */
export type RefreshPayload = Record<string, never>;

/** Extension. */
export interface SetTimezonePayload {
  /** IANA time zone name, e.g. `Europe/Berlin`. */
  timezone: string;
}

/** Extension: answer to `session-expiring`. */
export interface SetSessionPayload {
  sessionId: string;
}

/** One filter of an AI context: a dimension of a view and the values it is narrowed to (the `set-filter` JSON with its member). */
export interface AiContextFilter {
  /** `<view>.<dimension>`. */
  member: string;
  /** Default `equals`; the operators of `set-filter` (`not_equals`, `contains`, `between`, `is_null`, …). */
  operator?: string;
  /** A scalar, a list ("any of"), a `[from, to]` pair for `between`; absent for the valueless operators. */
  value?: string | number | boolean | (string | number | boolean)[];
}

/**
 * Extension: what the host page is about, for the chat's answers. Each question carries it; the
 * server applies the filters under row-level security and restricts the answer to the views.
 * An empty payload `{}` clears the context.
 */
export interface SetAiContextPayload {
  /** Shown in the chat header, e.g. "Account: Globex, EU region". */
  title?: string;
  description?: string;
  filters?: AiContextFilter[];
  /** The only views answers may use. */
  views?: string[];
}

export interface SvcActionPayloads {
  [ACTION_TYPES.setColorScheme]: SetColorSchemePayload;
  [ACTION_TYPES.setTheme]: SetThemePayload;
  [ACTION_TYPES.setLocale]: SetLocalePayload;
  [ACTION_TYPES.setFilter]: SetFilterPayload;
  [ACTION_TYPES.navigate]: NavigateActionPayload;
  [ACTION_TYPES.refresh]: RefreshPayload;
  [ACTION_TYPES.setTimezone]: SetTimezonePayload;
  [ACTION_TYPES.setSession]: SetSessionPayload;
  [ACTION_TYPES.setAiContext]: SetAiContextPayload;
}

// ---------------------------------------------------------------------------------------------
// Envelopes (6.1)

/** An event as posted by the embed. `surface` is always present. */
export type SvcEventOf<T extends SvcEventType> = {
  source: typeof SVC_SOURCE;
  direction: "event";
  type: T;
  payload: SvcEventPayloads[T];
  /** Epoch milliseconds. */
  timestamp: number;
  surface: Surface;
};

/** An action as posted by the host. It never carries `surface`. */
export type SvcActionOf<T extends SvcActionType> = {
  source: typeof SVC_SOURCE;
  direction: "action";
  type: T;
  /** `refresh` has an empty payload; raw senders may leave it out and the guard accepts that. */
  payload: SvcActionPayloads[T];
  /** Epoch milliseconds. */
  timestamp: number;
  /** Extension: when present, the embed answers with `svc:event:action-result`. */
  requestId?: string;
  surface?: never;
};

/** Every event, discriminated by `type`. */
export type SvcEvent = { [T in SvcEventType]: SvcEventOf<T> }[SvcEventType];
/** Every action, discriminated by `type`. */
export type SvcAction = { [T in SvcActionType]: SvcActionOf<T> }[SvcActionType];
/** Any message of the protocol. */
export type SvcMessage = SvcEvent | SvcAction;

export type ReadyEvent = SvcEventOf<typeof EVENT_TYPES.ready>;
export type ViewEvent = SvcEventOf<typeof EVENT_TYPES.view>;
export type NavigateEvent = SvcEventOf<typeof EVENT_TYPES.navigate>;
export type DashboardLoadedEvent = SvcEventOf<typeof EVENT_TYPES.dashboardLoaded>;
export type DownloadEvent = SvcEventOf<typeof EVENT_TYPES.download>;
export type DrilldownEvent = SvcEventOf<typeof EVENT_TYPES.drilldown>;
export type AiQueryEvent = SvcEventOf<typeof EVENT_TYPES.aiQuery>;
export type ErrorEvent = SvcEventOf<typeof EVENT_TYPES.error>;
export type ActionResultEvent = SvcEventOf<typeof EVENT_TYPES.actionResult>;
export type FiltersChangedEvent = SvcEventOf<typeof EVENT_TYPES.filtersChanged>;
export type ResizeEvent = SvcEventOf<typeof EVENT_TYPES.resize>;
export type SessionExpiringEvent = SvcEventOf<typeof EVENT_TYPES.sessionExpiring>;
export type WidgetClickEvent = SvcEventOf<typeof EVENT_TYPES.widgetClick>;

export type SetColorSchemeAction = SvcActionOf<typeof ACTION_TYPES.setColorScheme>;
export type SetThemeAction = SvcActionOf<typeof ACTION_TYPES.setTheme>;
export type SetLocaleAction = SvcActionOf<typeof ACTION_TYPES.setLocale>;
export type SetFilterAction = SvcActionOf<typeof ACTION_TYPES.setFilter>;
export type NavigateAction = SvcActionOf<typeof ACTION_TYPES.navigate>;
export type RefreshAction = SvcActionOf<typeof ACTION_TYPES.refresh>;
export type SetTimezoneAction = SvcActionOf<typeof ACTION_TYPES.setTimezone>;
export type SetSessionAction = SvcActionOf<typeof ACTION_TYPES.setSession>;
export type SetAiContextAction = SvcActionOf<typeof ACTION_TYPES.setAiContext>;

/**
 * What a host hands to a sender: the type, the payload and optionally a request id. The
 * sender fills in `source`, `direction` and `timestamp`.
 */
export type SvcActionInput = {
  [T in SvcActionType]: { type: T; payload: SvcActionPayloads[T]; requestId?: string };
}[SvcActionType];
