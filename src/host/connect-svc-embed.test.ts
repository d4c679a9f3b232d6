import { afterEach, describe, expect, it, vi } from "vitest";
import { createEmbedBridge, type EmbedWindow } from "../embed/bridge";
import { createEmbedStore } from "../embed/state/embed-store";
import { ACTION_TYPES, EVENT_TYPES, type SvcEvent } from "../protocol";
import { connectSvcEmbed, SvcRequestError } from "./connect-svc-embed";

const HOST = "https://host.example";
const SVC = "https://acme.svc.example";

/**
 * Two windows wired like a browser would: messages are cloned, carry the sender's origin and
 * window, and are delivered only when the target origin matches the receiver's origin.
 */
function createPage() {
  const hostListeners = new Set<(e: MessageEvent) => void>();
  const embedListeners = new Set<(e: MessageEvent) => void>();
  const hostWindow = {
    addEventListener: (_t: string, l: (e: MessageEvent) => void) => hostListeners.add(l),
    removeEventListener: (_t: string, l: (e: MessageEvent) => void) => hostListeners.delete(l),
    postMessage(message: unknown, targetOrigin: string) {
      if (targetOrigin !== HOST) return;
      const event = { data: structuredClone(message), origin: SVC, source: contentWindow } as unknown as MessageEvent;
      hostListeners.forEach((l) => l(event));
    },
  };
  const contentWindow = {
    postMessage(message: unknown, targetOrigin: string) {
      if (targetOrigin !== SVC) return;
      const event = { data: structuredClone(message), origin: HOST, source: hostWindow } as unknown as MessageEvent;
      embedListeners.forEach((l) => l(event));
    },
  };
  const embedWindow: EmbedWindow = {
    parent: hostWindow,
    location: { ancestorOrigins: [HOST] },
    document: { referrer: "" },
    addEventListener: (_t, l) => embedListeners.add(l),
    removeEventListener: (_t, l) => embedListeners.delete(l),
  };
  const iframe = { contentWindow };
  /** Delivers a message to the host as if some window posted it. */
  const deliverToHost = (data: unknown, origin: string, source: unknown) =>
    hostListeners.forEach((l) => l({ data, origin, source } as unknown as MessageEvent));
  return { hostWindow, contentWindow, embedWindow, iframe, deliverToHost, hostListeners };
}

function setup() {
  const page = createPage();
  const store = createEmbedStore();
  const bridge = createEmbedBridge({ window: page.embedWindow, surface: "dashboard", allowedOrigins: [HOST], store });
  const connection = connectSvcEmbed(page.iframe, { origin: SVC, window: page.hostWindow as unknown as Window });
  return { page, store, bridge, connection };
}

const readyPayload = { embedTenant: null, deploymentId: 3, mode: "private" as const };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("connectSvcEmbed", () => {
  afterEach(() => vi.useRealTimers());

  it("delivers typed events from the embed and resolves ready", async () => {
    const { bridge, connection } = setup();
    const views: string[] = [];
    const all: string[] = [];
    connection.on(EVENT_TYPES.view, (event) => views.push(event.payload.path));
    connection.on("*", (event: SvcEvent) => all.push(event.type));
    bridge.emit(EVENT_TYPES.ready, readyPayload);
    bridge.emit(EVENT_TYPES.view, { path: "/d/1" });
    const ready = await connection.ready;
    expect(ready.payload).toMatchObject({ deploymentId: 3, mode: "private", surface: "dashboard", protocolVersion: 1 });
    expect(views).toEqual(["/d/1"]);
    expect(all).toEqual([EVENT_TYPES.ready, EVENT_TYPES.view]);
  });

  it("request resolves with the embed's action-result", async () => {
    const { bridge, store, connection } = setup();
    bridge.emit(EVENT_TYPES.ready, readyPayload);
    store.getState().registerFilterControls(["orders.status"]);
    await expect(connection.request({ type: ACTION_TYPES.setColorScheme, payload: { scheme: "dark" } })).resolves.toMatchObject({
      action: ACTION_TYPES.setColorScheme,
      status: "applied",
    });
    await expect(connection.request({ type: ACTION_TYPES.setFilter, payload: { filterUrlParameter: 'f_orders.city={"value":"x"}' } })).resolves.toMatchObject({
      status: "ignored",
      reason: "no-filter-control",
    });
    expect(store.getState().colorScheme).toBe("dark");
  });

  it("send posts the envelope to the configured origin only", async () => {
    const { page, store, connection } = setup();
    const spy = vi.spyOn(page.contentWindow, "postMessage");
    connection.send({ type: ACTION_TYPES.refresh, payload: {} });
    await flush();
    expect(spy).toHaveBeenCalledWith(
      expect.objectContaining({ source: "svc-embed", direction: "action", type: ACTION_TYPES.refresh, timestamp: expect.any(Number) }),
      SVC,
    );
    expect(spy.mock.calls[0]![0]).not.toHaveProperty("surface");
    expect(store.getState().refreshNonce).toBe(1);
  });

  it("rejects a request on timeout", async () => {
    vi.useFakeTimers();
    const page = createPage();
    const connection = connectSvcEmbed(page.iframe, { origin: SVC, window: page.hostWindow as unknown as Window });
    const result = connection.request({ type: ACTION_TYPES.refresh, payload: {} }, { timeoutMs: 50 });
    vi.advanceTimersByTime(50);
    await expect(result).rejects.toMatchObject({ name: "SvcRequestError", code: "timeout" });
  });

  it("rejects pending requests on destroy and stops listening", async () => {
    const page = createPage();
    const connection = connectSvcEmbed(page.iframe, { origin: SVC, window: page.hostWindow as unknown as Window });
    const result = connection.request({ type: ACTION_TYPES.refresh, payload: {} });
    connection.destroy();
    await expect(result).rejects.toBeInstanceOf(SvcRequestError);
    expect(page.hostListeners.size).toBe(0);
    expect(() => connection.send({ type: ACTION_TYPES.refresh, payload: {} })).toThrow();
  });

  it("refuses wildcard and malformed origins and invalid actions", () => {
    const page = createPage();
    const win = page.hostWindow as unknown as Window;
    expect(() => connectSvcEmbed(page.iframe, { origin: "*", window: win })).toThrow(TypeError);
    expect(() => connectSvcEmbed(page.iframe, { origin: "acme.svc.example", window: win })).toThrow(TypeError);
    const connection = connectSvcEmbed(page.iframe, { origin: `${SVC}/`, window: win });
    expect(() => connection.send({ type: ACTION_TYPES.setColorScheme, payload: { scheme: "blue" as "dark" } })).toThrow(TypeError);
  });

  it("ignores messages that fail the spec 5.6 checks", () => {
    const page = createPage();
    const rejected: string[] = [];
    const seen: string[] = [];
    const connection = connectSvcEmbed(page.iframe, {
      origin: SVC,
      window: page.hostWindow as unknown as Window,
      onReject: (reason) => rejected.push(reason),
    });
    connection.on("*", (e) => seen.push(e.type));
    const good = {
      source: "svc-embed",
      direction: "event",
      type: EVENT_TYPES.navigate,
      payload: { path: "/x" },
      timestamp: 1,
      surface: "app",
    };
    page.deliverToHost(good, "https://evil.example", page.contentWindow);
    page.deliverToHost(good, SVC, { postMessage() {} });
    page.deliverToHost({ ...good, source: "other" }, SVC, page.contentWindow);
    page.deliverToHost({ ...good, direction: "action" }, SVC, page.contentWindow);
    page.deliverToHost({ ...good, payload: {} }, SVC, page.contentWindow);
    page.deliverToHost({ ...good, surface: undefined }, SVC, page.contentWindow);
    page.deliverToHost(good, SVC, page.contentWindow);
    expect(rejected).toEqual(["origin", "sender-window", "source", "direction", "invalid-event", "invalid-event"]);
    expect(seen).toEqual([EVENT_TYPES.navigate]);
  });

  it("keeps other handlers running when one throws", () => {
    const page = createPage();
    const errors: unknown[] = [];
    const connection = connectSvcEmbed(page.iframe, {
      origin: SVC,
      window: page.hostWindow as unknown as Window,
      onHandlerError: (error) => errors.push(error),
    });
    const seen: string[] = [];
    connection.on(EVENT_TYPES.navigate, () => {
      throw new Error("host bug");
    });
    const off = connection.on(EVENT_TYPES.navigate, (e) => seen.push(e.payload.path));
    const message = { source: "svc-embed", direction: "event", type: EVENT_TYPES.navigate, payload: { path: "/a" }, timestamp: 1, surface: "app" };
    page.deliverToHost(message, SVC, page.contentWindow);
    off();
    page.deliverToHost(message, SVC, page.contentWindow);
    expect(seen).toEqual(["/a"]);
    expect(errors).toHaveLength(2);
  });
});
