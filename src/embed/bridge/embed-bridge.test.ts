import { afterEach, describe, expect, it, vi } from "vitest";
import { ACTION_TYPES, EVENT_TYPES, PROTOCOL_VERSION, SVC_ACTION_TYPES } from "../../protocol";
import { createEmbedStore } from "../state/embed-store";
import { createEmbedBridge, type EmbedBridgeOptions } from "./embed-bridge";
import { normalizeAllowedOrigins, resolveHostOrigin } from "./host-origin";
import { actionMessage, createTestFrame, HOST, messageEvent, type TestFrameOptions } from "./test-frame";

function setup(frameOptions: TestFrameOptions = {}, bridgeOptions: Partial<EmbedBridgeOptions> = {}) {
  const frame = createTestFrame(frameOptions);
  const store = createEmbedStore();
  const bridge = createEmbedBridge({
    window: frame.win,
    surface: "dashboard",
    allowedOrigins: [HOST],
    store,
    ...bridgeOptions,
  });
  const send = (data: unknown, origin = HOST, source: unknown = frame.parent) => bridge.receive(messageEvent(source, origin, data));
  return { frame, store, bridge, send };
}

const ready = () => ({ embedTenant: "acme", deploymentId: 1, mode: "signed" as const, publicId: "AbCdEfGh1234" });

describe("resolveHostOrigin", () => {
  const allowed = normalizeAllowedOrigins([HOST, "http://localhost:5173"]);
  const cases: Array<[string, TestFrameOptions, string | null]> = [
    ["ancestorOrigins when present", { ancestorOrigins: [HOST] }, HOST],
    ["ancestorOrigins over the referrer", { ancestorOrigins: ["https://evil.example"], referrer: `${HOST}/page` }, null],
    ["the referrer's origin without ancestorOrigins", { ancestorOrigins: null, referrer: "http://localhost:5173/app?x=1" }, "http://localhost:5173"],
    ["nothing when the referrer is stripped", { ancestorOrigins: null, referrer: "" }, null],
    ["nothing for a framing origin not on the list", { ancestorOrigins: ["https://other.example"] }, null],
    ["nothing for an opaque parent", { ancestorOrigins: ["null"] }, null],
    ["nothing when not framed", { framed: false }, null],
  ];
  it.each(cases)("uses %s", (_name, options, expected) => {
    expect(resolveHostOrigin(createTestFrame(options).win, allowed)).toBe(expected);
  });

  it("refuses wildcards and normalises entries", () => {
    expect(() => normalizeAllowedOrigins(["*"])).toThrow(TypeError);
    expect(() => normalizeAllowedOrigins(["https://*.example.com"])).toThrow(TypeError);
    expect([...normalizeAllowedOrigins(["https://Host.Example:443/", "null", "ftp://x.example", "not a url", "http://a.example:8080/path"])]).toEqual([
      "https://host.example",
      "http://a.example:8080",
    ]);
  });
});

describe("createEmbedBridge inbound checks", () => {
  const originCases: Array<[string, string[], string, boolean]> = [
    ["exact origin", [HOST], HOST, true],
    ["allowed entry with trailing slash", [`${HOST}/`], HOST, true],
    ["allowed entry with default port", [`${HOST}:443`], HOST, true],
    ["different port", [HOST], `${HOST}:8443`, false],
    ["different scheme", [HOST], "http://host.example", false],
    ["subdomain", [HOST], "https://app.host.example", false],
    ["parent domain", ["https://app.host.example"], HOST, false],
    ["suffix trick", [HOST], "https://host.example.evil.example", false],
    ["opaque origin", [HOST], "null", false],
    ["origin with trailing slash", [HOST], `${HOST}/`, false],
    ["empty allow-list", [], HOST, false],
  ];
  it.each(originCases)("%s", async (_name, allowedOrigins, origin, accepted) => {
    const { store, bridge, send } = setup({}, { allowedOrigins });
    await send(actionMessage(ACTION_TYPES.setColorScheme, { scheme: "dark" }), origin);
    expect(store.getState().colorScheme).toBe(accepted ? "dark" : "light");
    expect(bridge.dropped.origin).toBe(accepted ? 0 : 1);
  });

  it("drops a sibling frame's message even from an allowed origin", async () => {
    const { frame, store, bridge, send } = setup();
    await send(actionMessage(ACTION_TYPES.setColorScheme, { scheme: "dark" }), HOST, frame.sibling);
    await send(actionMessage(ACTION_TYPES.setColorScheme, { scheme: "dark" }), HOST, null);
    expect(store.getState().colorScheme).toBe("light");
    expect(bridge.dropped["sender-window"]).toBe(2);
  });

  it("accepts nothing when the embed is not framed", async () => {
    const { frame, store, bridge, send } = setup({ framed: false });
    await send(actionMessage(ACTION_TYPES.setColorScheme, { scheme: "dark" }), HOST, frame.win);
    expect(store.getState().colorScheme).toBe("light");
    expect(bridge.dropped["sender-window"]).toBe(1);
  });

  const reasonCases: Array<[string, unknown, string]> = [
    ["a non-object", "svc:action:refresh", "source"],
    ["another source", { ...actionMessage(ACTION_TYPES.refresh, {}), source: "other" }, "source"],
    ["an event", { ...actionMessage(ACTION_TYPES.refresh, {}), direction: "event" }, "direction"],
    ["an unknown type", actionMessage("svc:action:drop-tables", {}), "unknown-type"],
    ["an action with surface", actionMessage(ACTION_TYPES.refresh, {}, { surface: "dashboard" }), "invalid-envelope"],
    ["a bad payload", actionMessage(ACTION_TYPES.setColorScheme, { scheme: "sepia" }), "invalid-payload"],
  ];
  it.each(reasonCases)("drops %s and counts it as %s", async (_name, data, reason) => {
    const drops: string[] = [];
    const { store, bridge, send } = setup({}, { onDrop: (r) => drops.push(r) });
    const before = JSON.stringify(store.getState());
    await send(data);
    expect(JSON.stringify(store.getState())).toBe(before);
    expect(drops).toEqual([reason]);
    expect(bridge.dropped[reason as keyof typeof bridge.dropped]).toBe(1);
  });

  it("checks the sender window before the origin and the origin before the shape", async () => {
    const { frame, bridge, send } = setup();
    await send("garbage", "https://evil.example", frame.sibling);
    await send("garbage", "https://evil.example");
    expect(bridge.dropped).toMatchObject({ "sender-window": 1, origin: 1, source: 0 });
  });

  it("stops receiving after destroy", async () => {
    const { store, bridge, send, frame } = setup();
    bridge.destroy();
    expect(frame.listeners.size).toBe(0);
    await send(actionMessage(ACTION_TYPES.refresh, {}));
    expect(store.getState().refreshNonce).toBe(0);
  });
});

describe("createEmbedBridge actions", () => {
  async function readyBridge(bridgeOptions: Partial<EmbedBridgeOptions> = {}) {
    const context = setup({}, bridgeOptions);
    context.bridge.emit(EVENT_TYPES.ready, ready());
    return context;
  }
  const results = (frame: ReturnType<typeof createTestFrame>) => frame.eventsOf(EVENT_TYPES.actionResult).map((m) => m.payload);

  it("answers a requestId with action-result and sends nothing extra without one", async () => {
    const { frame, store, send } = await readyBridge();
    await send(actionMessage(ACTION_TYPES.refresh, {}));
    expect(results(frame)).toEqual([]);
    await send(actionMessage(ACTION_TYPES.refresh, undefined, { requestId: "r1" }));
    expect(results(frame)).toEqual([{ requestId: "r1", action: ACTION_TYPES.refresh, status: "applied" }]);
    expect(store.getState().refreshNonce).toBe(2);
  });

  it("applies set-color-scheme, set-theme, set-timezone and navigate to the store", async () => {
    const { frame, store, send } = await readyBridge();
    await send(actionMessage(ACTION_TYPES.setColorScheme, { scheme: "auto" }, { requestId: "a" }));
    await send(actionMessage(ACTION_TYPES.setTheme, { primaryColor: "#112233", font: "x;y", extra: 1 }, { requestId: "b" }));
    await send(actionMessage(ACTION_TYPES.setTimezone, { timezone: "America/New_York" }, { requestId: "c" }));
    await send(actionMessage(ACTION_TYPES.navigate, { path: "/dashboards/x" }, { requestId: "d" }));
    expect(store.getState()).toMatchObject({
      colorScheme: "auto",
      theme: { primaryColor: "#112233" },
      timezone: "America/New_York",
      path: "/dashboards/x",
    });
    expect(results(frame).map((r) => [r.requestId, r.status, r.reason])).toEqual([
      ["a", "applied", undefined],
      ["b", "applied", "ignored-fields:font"],
      ["c", "applied", undefined],
      ["d", "applied", undefined],
    ]);
  });

  it("rejects a UTC offset as time zone and a navigate outside the embed", async () => {
    const { frame, store, send } = await readyBridge();
    await send(actionMessage(ACTION_TYPES.setTimezone, { timezone: "+02:00" }, { requestId: "tz" }));
    await send(actionMessage(ACTION_TYPES.navigate, { path: "//evil.example/x" }, { requestId: "nav" }));
    expect(store.getState()).toMatchObject({ timezone: null, path: "/" });
    expect(results(frame)).toEqual([
      { requestId: "tz", action: ACTION_TYPES.setTimezone, status: "rejected", reason: "invalid-timezone" },
      { requestId: "nav", action: ACTION_TYPES.navigate, status: "rejected", reason: "invalid-path" },
    ]);
  });

  it("matches set-locale and reports an unsupported locale as ignored", async () => {
    const { frame, store, send } = await readyBridge();
    await send(actionMessage(ACTION_TYPES.setLocale, { locale: "es-AR" }, { requestId: "1" }));
    expect(store.getState().locale).toBe("es-ES");
    await send(actionMessage(ACTION_TYPES.setLocale, { locale: "zh-CN" }, { requestId: "2" }));
    expect(store.getState().locale).toBe("es-ES");
    expect(results(frame).map((r) => [r.status, r.reason])).toEqual([
      ["applied", undefined],
      ["ignored", "unsupported-locale"],
    ]);
  });

  it("applies set-filter only where a control exists and emits filters-changed", async () => {
    const { frame, store, send } = await readyBridge();
    store.getState().registerFilterControls(["orders.status"]);
    await send(actionMessage(ACTION_TYPES.setFilter, { filterUrlParameter: 'f_orders.city={"value":"Oslo"}' }, { requestId: "none" }));
    await send(actionMessage(ACTION_TYPES.setFilter, { filterUrlParameter: "f_orders.status={oops" }, { requestId: "bad" }));
    await send(actionMessage(ACTION_TYPES.setFilter, { filterUrlParameter: 'f_orders.status={"value":["a","b"]}' }, { requestId: "ok" }));
    expect(results(frame).map((r) => [r.requestId, r.status, r.reason])).toEqual([
      ["none", "ignored", "no-filter-control"],
      ["bad", "rejected", "invalid-json"],
      ["ok", "applied", undefined],
    ]);
    expect(store.getState().filters).toEqual({ "orders.status": { member: "orders.status", operator: "equals", value: ["a", "b"] } });
    expect(frame.eventsOf(EVENT_TYPES.filtersChanged).map((m) => m.payload)).toEqual([{ filterUrlParameters: ['f_orders.status={"value":["a","b"]}'] }]);
    // The same filter again changes nothing and emits nothing; clearing emits the empty list.
    await send(actionMessage(ACTION_TYPES.setFilter, { filterUrlParameter: 'f_orders.status={"value":["a","b"]}' }));
    await send(actionMessage(ACTION_TYPES.setFilter, { filterUrlParameter: "f_orders.status=null" }));
    expect(frame.eventsOf(EVENT_TYPES.filtersChanged).map((m) => m.payload)).toEqual([
      { filterUrlParameters: ['f_orders.status={"value":["a","b"]}'] },
      { filterUrlParameters: [] },
    ]);
  });

  it("emits filters-changed for filter changes made inside the embed too", async () => {
    const { frame, store } = await readyBridge();
    store.getState().setFilter("orders.amount", { member: "orders.amount", operator: "greater_than", value: 5 });
    expect(frame.eventsOf(EVENT_TYPES.filtersChanged).at(-1)?.payload).toEqual({
      filterUrlParameters: ['f_orders.amount={"operator":"greater_than","value":5}'],
    });
  });

  it("reports a throwing handler as rejected and lets surfaces add handlers", async () => {
    const { frame, bridge, send } = await readyBridge();
    bridge.handle(ACTION_TYPES.refresh, () => {
      throw new Error("boom");
    });
    const sessions: string[] = [];
    bridge.handle(ACTION_TYPES.setSession, async ({ sessionId }) => {
      sessions.push(sessionId);
      return { status: "applied" };
    });
    await send(actionMessage(ACTION_TYPES.refresh, {}, { requestId: "r" }));
    await send(actionMessage(ACTION_TYPES.setSession, { sessionId: "s-2" }, { requestId: "s" }));
    expect(sessions).toEqual(["s-2"]);
    expect(results(frame).map((r) => [r.requestId, r.status, r.reason])).toEqual([
      ["r", "rejected", "handler-failed"],
      ["s", "applied", undefined],
    ]);
  });

  it("answers an action without a handler as ignored, and malformed ones from the host as rejected", async () => {
    const { frame, send } = await readyBridge();
    await send(actionMessage(ACTION_TYPES.setSession, { sessionId: "x" }, { requestId: "1" }));
    await send(actionMessage("svc:action:unknown", {}, { requestId: "2" }));
    await send(actionMessage(ACTION_TYPES.setLocale, {}, { requestId: "3" }));
    expect(results(frame)).toEqual([
      { requestId: "1", action: ACTION_TYPES.setSession, status: "ignored", reason: "not-supported" },
      { requestId: "2", action: "svc:action:unknown", status: "rejected", reason: "unknown-type" },
      { requestId: "3", action: ACTION_TYPES.setLocale, status: "rejected", reason: "invalid-payload" },
    ]);
  });

  it("never answers a message from an untrusted sender", async () => {
    const { frame, send } = await readyBridge();
    await send(actionMessage("svc:action:unknown", {}, { requestId: "x" }), "https://evil.example");
    await send(actionMessage("svc:action:unknown", {}, { requestId: "y" }), HOST, frame.sibling);
    expect(results(frame)).toEqual([]);
  });
});

describe("createEmbedBridge events", () => {
  it("posts to the host origin only, with the full envelope", () => {
    const { frame, bridge } = setup({}, { now: () => 42 });
    expect(bridge.emit(EVENT_TYPES.ready, ready())).toBe(true);
    expect(bridge.emit(EVENT_TYPES.view, { path: "/", title: "Sales" })).toBe(true);
    expect(frame.posted.every((p) => p.targetOrigin === HOST)).toBe(true);
    expect(frame.posted[1]!.message).toEqual({
      source: "svc-embed",
      direction: "event",
      type: EVENT_TYPES.view,
      payload: { surface: "dashboard", path: "/", title: "Sales" },
      timestamp: 42,
      surface: "dashboard",
    });
  });

  it("stamps the surface a view names (after navigate to the chat) on that view and the events after it", () => {
    const { frame, bridge } = setup();
    bridge.emit(EVENT_TYPES.ready, ready());
    bridge.emit(EVENT_TYPES.view, { surface: "chat", path: "/embed/chat" });
    bridge.emit(EVENT_TYPES.navigate, { path: "/embed/chat", previousPath: "/embed/dashboard/x" });
    expect(frame.posted[1]!.message).toMatchObject({ surface: "chat", payload: { surface: "chat", path: "/embed/chat" } });
    expect(frame.posted[2]!.message.surface).toBe("chat");
  });

  it("sends ready once, first, with protocol version and capabilities", () => {
    const { frame, bridge } = setup();
    bridge.emit(EVENT_TYPES.navigate, { path: "/b", previousPath: "/a" });
    bridge.emit(EVENT_TYPES.dashboardLoaded, { widgetCount: 3, loadDurationMs: 120 });
    expect(frame.posted).toEqual([]);
    expect(bridge.emit(EVENT_TYPES.ready, ready())).toBe(true);
    expect(bridge.emit(EVENT_TYPES.ready, ready())).toBe(false);
    expect(frame.posted.map((p) => p.message.type)).toEqual([EVENT_TYPES.ready, EVENT_TYPES.navigate, EVENT_TYPES.dashboardLoaded]);
    const payload = frame.posted[0]!.message.payload;
    expect(payload).toMatchObject({ ...ready(), surface: "dashboard", protocolVersion: PROTOCOL_VERSION });
    expect((payload.capabilities as { actions: string[] }).actions.sort()).toEqual(
      // set-session is the auth controller's, set-ai-context the chat surface's (src/embed/boot.ts).
      SVC_ACTION_TYPES.filter((t) => t !== ACTION_TYPES.setSession && t !== ACTION_TYPES.setAiContext).sort(),
    );
    expect((payload.capabilities as { events: string[] }).events).toContain(EVENT_TYPES.resize);
  });

  it("lets errors out before ready, so a failed authentication is visible", () => {
    const { frame, bridge } = setup();
    expect(bridge.emitError({ message: "session unknown", name: "SessionInvalid", fatal: true })).toBe(true);
    expect(frame.eventsOf(EVENT_TYPES.error)).toHaveLength(1);
  });

  it("lists only the events a non-dashboard surface emits", () => {
    const { frame, bridge } = setup({}, { surface: "chat" });
    bridge.emit(EVENT_TYPES.ready, ready());
    const events = frame.posted[0]!.message.payload.capabilities as { events: string[] };
    expect(events.events).not.toContain(EVENT_TYPES.download);
    expect(events.events).toContain(EVENT_TYPES.aiQuery);
  });

  it("refuses malformed events instead of posting them", () => {
    const { frame, bridge } = setup();
    bridge.emit(EVENT_TYPES.ready, ready());
    expect(bridge.emit(EVENT_TYPES.download, { format: "csv", target: "widget", rows: [[1]] } as never)).toBe(false);
    expect(bridge.emit(EVENT_TYPES.dashboardLoaded, { loadDurationMs: Number.NaN })).toBe(false);
    expect(frame.posted).toHaveLength(1);
  });

  const silentCases: Array<[string, TestFrameOptions, string[]]> = [
    ["not framed", { framed: false }, [HOST]],
    ["framed by an origin not allowed", { ancestorOrigins: ["https://evil.example"] }, [HOST]],
    ["empty allow-list", {}, []],
  ];
  it.each(silentCases)("posts nothing when %s", (_name, frameOptions, allowedOrigins) => {
    const { frame, bridge } = setup(frameOptions, { allowedOrigins });
    expect(bridge.hostOrigin).toBeNull();
    expect(bridge.emit(EVENT_TYPES.ready, ready())).toBe(false);
    bridge.emitError({ message: "x" });
    expect(frame.posted).toEqual([]);
  });

  it("learns the host origin from a verified action when it could not be detected", async () => {
    const { frame, bridge, send } = setup({ ancestorOrigins: null, referrer: "" });
    expect(bridge.hostOrigin).toBeNull();
    await send(actionMessage(ACTION_TYPES.refresh, {}));
    expect(bridge.hostOrigin).toBe(HOST);
    bridge.emit(EVENT_TYPES.ready, ready());
    expect(frame.posted.map((p) => p.targetOrigin)).toEqual([HOST]);
  });
});

describe("createEmbedBridge resize", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reports content size debounced, on changes of at least 1px, and cannot loop with a host that sizes the iframe", () => {
    vi.useFakeTimers();
    const observers: Array<() => void> = [];
    class FakeResizeObserver {
      constructor(private readonly callback: () => void) {
        observers.push(() => this.callback());
      }
      observe() {}
      disconnect() {
        observers.length = 0;
      }
    }
    const frame = createTestFrame();
    const win = { ...frame.win, ResizeObserver: FakeResizeObserver } as typeof frame.win;
    const bridge = createEmbedBridge({ window: win, surface: "dashboard", allowedOrigins: [HOST], store: createEmbedStore() });
    bridge.emit(EVENT_TYPES.ready, ready());

    // The content element: its height comes from its content; the viewport (iframe) height
    // the host sets does not enter the measurement.
    let contentHeight = 640.4;
    let iframeHeight = 150;
    const element = { getBoundingClientRect: () => ({ height: contentHeight, width: 800 }) };
    const resizes = () => frame.eventsOf(EVENT_TYPES.resize).map((m) => m.payload);
    // Simulated host: sets the iframe height from each resize, which makes the browser lay
    // out again and fire the observer.
    const hostApplies = () => {
      const last = resizes().at(-1);
      if (last && last.height !== iframeHeight) {
        iframeHeight = last.height as number;
        observers.forEach((fire) => fire());
      }
    };

    const stop = bridge.observeContentSize(element);
    vi.advanceTimersByTime(99);
    expect(resizes()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(resizes()).toEqual([{ height: 641, width: 800 }]);
    for (let round = 0; round < 20; round++) {
      hostApplies();
      vi.advanceTimersByTime(200);
    }
    expect(iframeHeight).toBe(641);
    expect(resizes()).toHaveLength(1);

    // Sub-pixel jitter is not a change; a burst of real changes gives one report.
    contentHeight = 640.9;
    observers.forEach((fire) => fire());
    vi.advanceTimersByTime(200);
    expect(resizes()).toHaveLength(1);
    for (const h of [700, 720, 760]) {
      contentHeight = h;
      observers.forEach((fire) => fire());
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(100);
    expect(resizes()).toEqual([
      { height: 641, width: 800 },
      { height: 760, width: 800 },
    ]);
    hostApplies();
    vi.advanceTimersByTime(500);
    expect(resizes()).toHaveLength(2);

    stop();
    contentHeight = 900;
    vi.advanceTimersByTime(500);
    expect(resizes()).toHaveLength(2);
  });
});
