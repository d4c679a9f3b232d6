import { describe, expect, it } from "vitest";
import { ACTION_TYPES, EVENT_TYPES, SVC_ACTION_TYPES, SVC_EVENT_TYPES, SVC_SOURCE } from "./constants";
import {
  isActionResultEvent,
  isAiQueryEvent,
  isDashboardLoadedEvent,
  isDownloadEvent,
  isDrilldownEvent,
  isErrorEvent,
  isFiltersChangedEvent,
  isNavigateAction,
  isNavigateEvent,
  isReadyEvent,
  isRefreshAction,
  isResizeEvent,
  isSessionExpiringEvent,
  isWidgetClickEvent,
  isSetColorSchemeAction,
  isSetFilterAction,
  isSetLocaleAction,
  isSetAiContextAction,
  isSetSessionAction,
  isSetThemeAction,
  isSetTimezoneAction,
  isSvcAction,
  isSvcEvent,
  isViewEvent,
  parseInboundAction,
} from "./guards";

const event = (type: string, payload: unknown) => ({
  source: SVC_SOURCE,
  direction: "event",
  type,
  payload,
  timestamp: 1_700_000_000_000,
  surface: "dashboard",
});
const action = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  source: SVC_SOURCE,
  direction: "action",
  type,
  payload,
  timestamp: 1_700_000_000_000,
  ...extra,
});

const readyPayload = {
  embedTenant: null,
  deploymentId: 7,
  mode: "signed",
  surface: "dashboard",
  publicId: "AbCdEfGh1234",
  protocolVersion: 1,
  capabilities: { events: [EVENT_TYPES.ready], actions: [ACTION_TYPES.refresh] },
};

type EventCase = {
  guard: (v: unknown) => boolean;
  type: string;
  valid: unknown[];
  invalid: unknown[];
};

const eventCases: EventCase[] = [
  {
    guard: isReadyEvent,
    type: EVENT_TYPES.ready,
    valid: [
      readyPayload,
      { ...readyPayload, publicId: undefined, embedTenant: "acme", deploymentId: null, mode: "private" },
      { ...readyPayload, exportFormats: ["csv", "pdf"] },
      { ...readyPayload, exportFormats: [] },
      { ...readyPayload, surface: "report", publicId: "AbCdEfGh1234" },
    ],
    invalid: [
      { ...readyPayload, exportFormats: ["docx"] },
      { ...readyPayload, exportFormats: "csv" },
      { ...readyPayload, mode: "public" },
      { ...readyPayload, deploymentId: "7" },
      { ...readyPayload, surface: "reports" },
      { ...readyPayload, protocolVersion: undefined },
      { ...readyPayload, capabilities: { events: ["svc:event:nope"], actions: [] } },
      { ...readyPayload, embedTenant: undefined },
    ],
  },
  {
    guard: isViewEvent,
    type: EVENT_TYPES.view,
    valid: [
      { surface: "app", path: "/" },
      { surface: "dashboard", path: "/d", publicId: "x", title: "T" },
    ],
    invalid: [{ path: "/" }, { surface: "app", path: 3 }, { surface: "app", path: "/", title: 1 }],
  },
  {
    guard: isNavigateEvent,
    type: EVENT_TYPES.navigate,
    valid: [{ path: "/a" }, { path: "/a", previousPath: "/" }],
    invalid: [{}, { path: "/a", previousPath: null }],
  },
  {
    guard: isDashboardLoadedEvent,
    type: EVENT_TYPES.dashboardLoaded,
    valid: [{}, { publicId: "p", widgetCount: 4, loadDurationMs: 812.5 }],
    invalid: [{ widgetCount: -1 }, { loadDurationMs: Number.NaN }, { widgetCount: "4" }],
  },
  {
    guard: isDownloadEvent,
    type: EVENT_TYPES.download,
    valid: [
      { format: "csv", target: "widget", widgetId: "w1", rowCount: 10 },
      { format: "pdf", target: "dashboard" },
    ],
    invalid: [
      { format: "json", target: "widget" },
      { format: "csv", target: "page" },
      { format: "csv", target: "widget", rows: [[1]] },
      { format: "csv", target: "widget", rowCount: Infinity },
    ],
  },
  {
    guard: isDrilldownEvent,
    type: EVENT_TYPES.drilldown,
    valid: [{ member: "orders.count" }, { member: "orders.count", value: { a: 1 }, widgetId: "w" }],
    invalid: [{ value: 1 }, { member: 1 }],
  },
  {
    guard: isAiQueryEvent,
    type: EVENT_TYPES.aiQuery,
    valid: [
      { query: "q", status: "submitted" },
      { query: "q", status: "error", chatId: "c", agentId: "a" },
    ],
    invalid: [{ query: "q", status: "done" }, { status: "completed" }],
  },
  {
    guard: isErrorEvent,
    type: EVENT_TYPES.error,
    valid: [{ message: "m" }, { message: "m", name: "SessionExpired", context: "token", fatal: true }],
    invalid: [{ name: "X" }, { message: "m", fatal: "yes" }],
  },
  {
    guard: isActionResultEvent,
    type: EVENT_TYPES.actionResult,
    valid: [
      { requestId: "r", action: ACTION_TYPES.refresh, status: "applied" },
      { requestId: "r", action: "x", status: "ignored", reason: "no-control" },
    ],
    invalid: [
      { requestId: "r", action: ACTION_TYPES.refresh, status: "ok" },
      { action: "x", status: "applied" },
    ],
  },
  {
    guard: isFiltersChangedEvent,
    type: EVENT_TYPES.filtersChanged,
    valid: [{ filterUrlParameters: [] }, { filterUrlParameters: ['f_a.b={"value":1}'] }],
    invalid: [{ filterUrlParameters: [1] }, { filterUrlParameters: "f_a.b=1" }],
  },
  {
    guard: isResizeEvent,
    type: EVENT_TYPES.resize,
    valid: [{ height: 600, width: 800 }],
    invalid: [{ height: 600 }, { height: -1, width: 1 }],
  },
  {
    guard: isSessionExpiringEvent,
    type: EVENT_TYPES.sessionExpiring,
    valid: [{ expiresAt: 1_700_000_060_000, secondsLeft: 60 }],
    invalid: [{ expiresAt: "soon", secondsLeft: 60 }, { expiresAt: 1 }],
  },
  {
    guard: isWidgetClickEvent,
    type: EVENT_TYPES.widgetClick,
    valid: [
      { name: "open-customer", widgetId: "w1", member: "orders.count", value: 3, dimensions: { "orders.city": "Oslo", "orders.created_at.month": null } },
      { name: "x", widgetId: "w1", member: "orders.count", dimensions: {} },
    ],
    invalid: [
      { widgetId: "w1", member: "orders.count", dimensions: {} },
      { name: "x", widgetId: "w1", member: "orders.count" },
      { name: "x", widgetId: "w1", member: "orders.count", dimensions: { "orders.city": { nested: true } } },
    ],
  },
];

describe("event guards", () => {
  it("cover every event type", () => {
    expect(eventCases.map((c) => c.type).sort()).toEqual([...SVC_EVENT_TYPES].sort());
  });

  for (const c of eventCases) {
    it(`accept valid ${c.type} events and reject malformed ones`, () => {
      for (const payload of c.valid) {
        expect(c.guard(event(c.type, payload))).toBe(true);
        expect(isSvcEvent(event(c.type, payload))).toBe(true);
      }
      for (const payload of c.invalid) {
        expect(c.guard(event(c.type, payload))).toBe(false);
        expect(isSvcEvent(event(c.type, payload))).toBe(false);
      }
      const good = event(c.type, c.valid[0]);
      const { surface: _surface, ...withoutSurface } = good;
      expect(c.guard(withoutSurface)).toBe(false);
      expect(c.guard({ ...good, source: "other" })).toBe(false);
      expect(c.guard({ ...good, direction: "action" })).toBe(false);
      expect(c.guard({ ...good, timestamp: "now" })).toBe(false);
      expect(c.guard({ ...good, surface: "page" })).toBe(false);
      expect(c.guard({ ...good, payload: null })).toBe(false);
      // A guard answers for its own type only.
      const other = eventCases.find((o) => o.type !== c.type)!;
      expect(c.guard(event(other.type, other.valid[0]))).toBe(false);
    });
  }

  it("reject unknown event types and non-objects", () => {
    for (const value of [null, undefined, 1, "svc", [], event("svc:event:unknown", {})]) {
      expect(isSvcEvent(value)).toBe(false);
    }
  });
});

type ActionCase = { guard: (v: unknown) => boolean; type: string; valid: unknown[]; invalid: unknown[] };

const actionCases: ActionCase[] = [
  {
    guard: isSetColorSchemeAction,
    type: ACTION_TYPES.setColorScheme,
    valid: [{ scheme: "light" }, { scheme: "dark" }, { scheme: "auto" }],
    invalid: [{ scheme: "system" }, {}],
  },
  {
    guard: isSetThemeAction,
    type: ACTION_TYPES.setTheme,
    valid: [
      {},
      { primaryColor: "#0a6cff", borderRadius: 6, font: "Inter" },
      { borderRadius: "8px", analyticsChat: { backgroundColor: "#fff", chatInput: { borderColor: "#ddd" } }, chat: { inputColor: "#000" } },
      { primaryColor: "#000", somethingNew: { nested: true } },
    ],
    invalid: [{ primaryColor: 1 }, { borderRadius: -2 }, { analyticsChat: "blue" }, { chat: { inputColor: 3 } }, { analyticsChat: { chatInput: [] } }],
  },
  {
    guard: isSetLocaleAction,
    type: ACTION_TYPES.setLocale,
    valid: [{ locale: "de" }, { locale: "es-AR" }],
    invalid: [{ locale: "" }, { locale: 5 }, {}],
  },
  {
    guard: isSetFilterAction,
    type: ACTION_TYPES.setFilter,
    valid: [{ filterUrlParameter: 'f_orders.status={"value":"shipped"}' }],
    invalid: [{ filterUrlParameter: "" }, { filterUrlParameter: ["a"] }],
  },
  {
    guard: isNavigateAction,
    type: ACTION_TYPES.navigate,
    valid: [{ path: "/dashboards/x" }],
    invalid: [{ path: null }, {}],
  },
  {
    guard: isRefreshAction,
    type: ACTION_TYPES.refresh,
    valid: [{}, undefined],
    invalid: [null, "now", []],
  },
  {
    guard: isSetTimezoneAction,
    type: ACTION_TYPES.setTimezone,
    valid: [{ timezone: "Europe/Berlin" }],
    invalid: [{ timezone: "" }, { tz: "UTC" }],
  },
  {
    guard: isSetSessionAction,
    type: ACTION_TYPES.setSession,
    valid: [{ sessionId: "s-123" }],
    invalid: [{ sessionId: "" }, { sessionId: 5 }],
  },
  {
    guard: isSetAiContextAction,
    type: ACTION_TYPES.setAiContext,
    valid: [
      {},
      { title: "Account: Globex, EU region" },
      {
        title: "EU",
        description: "The account page",
        filters: [
          { member: "sales.customers_country", value: ["Germany", "France"] },
          { member: "sales.status", operator: "is_not_null" },
        ],
        views: ["sales"],
      },
      { filters: [{ member: "sales.amount", operator: "between", value: [10, 20] }] },
    ],
    invalid: [
      { title: 5 },
      { title: "x".repeat(201) },
      { description: "x".repeat(1001) },
      { filters: "sales.status" },
      { filters: [{ value: "shipped" }] },
      { filters: [{ member: "", value: "shipped" }] },
      { filters: [{ member: "sales.status", value: [] }] },
      { filters: [{ member: "sales.status", value: { nested: 1 } }] },
      { filters: Array.from({ length: 21 }, () => ({ member: "sales.status", value: "x" })) },
      { views: "sales" },
      { views: [""] },
      { views: [1] },
    ],
  },
];

describe("action guards", () => {
  it("cover every action type", () => {
    expect(actionCases.map((c) => c.type).sort()).toEqual([...SVC_ACTION_TYPES].sort());
  });

  for (const c of actionCases) {
    it(`accept valid ${c.type} actions and reject malformed ones`, () => {
      for (const payload of c.valid) {
        expect(c.guard(action(c.type, payload))).toBe(true);
        expect(c.guard(action(c.type, payload, { requestId: "req-1" }))).toBe(true);
        expect(isSvcAction(action(c.type, payload))).toBe(true);
      }
      for (const payload of c.invalid) {
        expect(c.guard(action(c.type, payload))).toBe(false);
        expect(parseInboundAction(action(c.type, payload))).toMatchObject({ ok: false, reason: "invalid-payload" });
      }
      const good = action(c.type, c.valid[0]);
      expect(c.guard({ ...good, surface: "dashboard" })).toBe(false);
      expect(c.guard({ ...good, direction: "event" })).toBe(false);
      expect(c.guard({ ...good, source: "svc" })).toBe(false);
      expect(c.guard({ ...good, requestId: 42 })).toBe(false);
      expect(c.guard({ ...good, requestId: "" })).toBe(false);
      expect(c.guard({ ...good, requestId: "x".repeat(129) })).toBe(false);
      const { timestamp: _t, ...withoutTimestamp } = good;
      expect(c.guard(withoutTimestamp)).toBe(false);
    });
  }
});

describe("parseInboundAction", () => {
  const cases: Array<[string, unknown, string]> = [
    ["null", null, "not-svc-message"],
    ["a string", "svc:action:refresh", "not-svc-message"],
    ["an array", [], "not-svc-message"],
    ["another source", { ...action(ACTION_TYPES.refresh, {}), source: "other-embed" }, "not-svc-message"],
    ["an event", { ...action(ACTION_TYPES.refresh, {}), direction: "event" }, "wrong-direction"],
    ["no direction", { ...action(ACTION_TYPES.refresh, {}), direction: undefined }, "wrong-direction"],
    ["an unknown type", action("svc:action:delete-everything", {}), "unknown-type"],
    ["an event type as action", action(EVENT_TYPES.ready, {}), "unknown-type"],
    ["surface on an action", action(ACTION_TYPES.refresh, {}, { surface: "dashboard" }), "invalid-envelope"],
    ["surface undefined but present", action(ACTION_TYPES.refresh, {}, { surface: undefined }), "invalid-envelope"],
    ["a bad timestamp", { ...action(ACTION_TYPES.refresh, {}), timestamp: Number.NaN }, "invalid-envelope"],
    ["a bad payload", action(ACTION_TYPES.setLocale, { locale: 1 }), "invalid-payload"],
  ];
  it.each(cases)("rejects %s with its reason", (_name, data, reason) => {
    expect(parseInboundAction(data)).toMatchObject({ ok: false, reason });
  });

  it("returns a clean copy of a valid action and keeps requestId", () => {
    const result = parseInboundAction({ ...action(ACTION_TYPES.refresh, undefined, { requestId: "r1" }), extra: 1 });
    expect(result).toEqual({
      ok: true,
      action: { source: SVC_SOURCE, direction: "action", type: ACTION_TYPES.refresh, payload: {}, timestamp: 1_700_000_000_000, requestId: "r1" },
    });
  });

  it("reports the requestId and type of a rejected action from a verified sender", () => {
    expect(parseInboundAction(action("svc:action:nope", {}, { requestId: "r2" }))).toEqual({
      ok: false,
      reason: "unknown-type",
      requestId: "r2",
      type: "svc:action:nope",
    });
  });
});
