// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTION_TYPES, EVENT_TYPES, SVC_ACTION_TYPES, SVC_EVENT_TYPES, type ActionResultStatus, type SvcActionType, type SvcEvent } from "../protocol";
import { SvcRequestError } from "./connect-svc-embed";
import { defineSvcEmbed, SVC_EMBED_ALLOW, SVC_EMBED_SANDBOX, SvcEmbedElement } from "./svc-embed-element";
import { SVC_EMBED_DOM_EVENTS, svcEmbedDomEventName } from "./svc-embed-events";

const SVC = "https://acme.svc.example";
const SRC = `${SVC}/embed/dashboard/AbCdEfGh1234`;

type Posted = { type: string; payload: Record<string, unknown>; requestId?: string; targetOrigin: string };

/**
 * A page with one `<svc-embed>` and a stand-in for the embed inside its frame: it records every
 * action the element posts and can post events back, from the frame's window and the svc origin
 * (or from elsewhere, to test the checks). It answers each action with a request id with `answer`.
 */
async function mount(attributes: Record<string, string>, options: { actions?: SvcActionType[]; answer?: (type: string) => ActionResultStatus } = {}) {
  const el = document.createElement("svc-embed");
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  const posted: Posted[] = [];
  const answer = options.answer ?? (() => "applied");
  let spied: Window | null = null;
  const spy = () => {
    const target = el.iframe?.contentWindow;
    if (!target || spied === target) return;
    spied = target;
    vi.spyOn(target, "postMessage").mockImplementation((message: unknown, targetOrigin?: unknown) => {
      const m = message as Posted;
      posted.push({ type: m.type, payload: m.payload, requestId: m.requestId, targetOrigin: String(targetOrigin) });
      if (m.requestId) queueMicrotask(() => emit(EVENT_TYPES.actionResult, { requestId: m.requestId!, action: m.type, status: answer(m.type) }));
    });
  };
  const emit = (type: SvcEvent["type"], payload: object, from: { origin?: string; source?: Window | null } = {}) => {
    spy();
    const data = { source: "svc-embed", direction: "event", type, payload, timestamp: Date.now(), surface: "dashboard" };
    window.dispatchEvent(
      new MessageEvent("message", { data, origin: from.origin ?? SVC, source: from.source === undefined ? el.iframe!.contentWindow : from.source }),
    );
  };
  const ready = () =>
    emit(EVENT_TYPES.ready, {
      embedTenant: "acme-corp",
      deploymentId: 1,
      mode: "signed",
      surface: "dashboard",
      protocolVersion: 1,
      capabilities: { events: [...SVC_EVENT_TYPES], actions: options.actions ?? [...SVC_ACTION_TYPES] },
    });
  document.body.append(el);
  await flush();
  // jsdom gives a frame in a shadow root no window; a light-DOM frame lends one, as a browser's would be.
  const lender = document.createElement("iframe");
  document.body.append(lender);
  if (el.iframe) Object.defineProperty(el.iframe, "contentWindow", { get: () => lender.contentWindow, configurable: true });
  spy();
  return { el, posted, emit, ready };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeAll(() => {
  defineSvcEmbed();
});
afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe("<svc-embed> attributes", () => {
  it("frames src with the session and locale as URL parameters, sandboxed, in its shadow root, loading once", async () => {
    const el = document.createElement("svc-embed");
    const loads: string[] = [];
    const observer = new MutationObserver((records) => records.forEach((r) => loads.push((r.target as HTMLIFrameElement).src)));
    observer.observe(el.shadowRoot!, { subtree: true, attributeFilter: ["src"] });
    document.body.append(el);
    // A framework sets attributes one by one after insertion: still one load.
    el.setAttribute("src", `${SRC}?allowExport=true`);
    el.setAttribute("session", "sess_1");
    el.setAttribute("locale", "de-DE");
    await flush();
    const iframe = el.shadowRoot!.querySelector("iframe")!;
    expect(iframe).toBe(el.iframe);
    const url = new URL(iframe.src);
    expect(url.origin + url.pathname).toBe(SRC);
    expect(Object.fromEntries(url.searchParams)).toEqual({ allowExport: "true", session: "sess_1", locale: "de-DE" });
    expect(iframe.getAttribute("sandbox")).toBe(SVC_EMBED_SANDBOX);
    expect(iframe.getAttribute("sandbox")).not.toContain("allow-top-navigation");
    expect(iframe.getAttribute("allow")).toBe(SVC_EMBED_ALLOW);
    expect(loads).toHaveLength(1);
    observer.disconnect();
  });

  it("loads nothing and reports why when origin and src disagree, or origin is a wildcard", async () => {
    const reported = vi.fn();
    vi.stubGlobal("reportError", reported);
    const { el } = await mount({ src: SRC, origin: "https://other.example" });
    expect(el.iframe).toBeNull();
    expect(String(reported.mock.calls[0]![0])).toContain("not on the origin https://other.example");
    await expect(el.ready).rejects.toThrow("not on the origin https://other.example");
    el.setAttribute("origin", "*");
    await flush();
    expect(el.iframe).toBeNull();
    expect(String(reported.mock.calls[1]![0])).toContain('never "*"');
    // The exact origin, written with a trailing slash, is the same origin.
    el.setAttribute("origin", `${SVC}/`);
    await flush();
    expect(el.iframe?.src).toBe(SRC);
    vi.unstubAllGlobals();
  });

  it("reflects its properties to attributes, also ones a framework set before the element was defined", async () => {
    const early = document.createElement("svc-embed-late");
    Object.assign(early, { src: SRC, session: "sess_9", theme: "dark" });
    document.body.append(early);
    defineSvcEmbed("svc-embed-late");
    await flush();
    if (!(early instanceof SvcEmbedElement)) throw new Error("not upgraded");
    expect([early.getAttribute("src"), early.getAttribute("session"), early.getAttribute("theme")]).toEqual([SRC, "sess_9", "dark"]);
    expect(early.iframe?.src).toBe(`${SRC}?session=sess_9`);
    early.session = null;
    expect(early.hasAttribute("session")).toBe(false);
  });

  it("uses the title of the surface for the frame unless the page gives a label", async () => {
    const { el, emit, ready } = await mount({ src: SRC });
    ready();
    emit(EVENT_TYPES.view, { surface: "dashboard", path: "/dashboard/AbCdEfGh1234", title: "Umsatz" });
    expect(el.iframe!.title).toBe("Umsatz");
    el.setAttribute("label", "Sales analytics");
    expect(el.iframe!.title).toBe("Sales analytics");
  });
});

describe("<svc-embed> messages", () => {
  it("dispatches only events from its own frame and the exact origin, as svc-<name> CustomEvents carrying the whole event", async () => {
    const { el, emit, ready } = await mount({ src: SRC });
    const heard: CustomEvent[] = [];
    document.addEventListener("svc-ready", (e) => heard.push(e as CustomEvent));
    emit(EVENT_TYPES.ready, { embedTenant: null }, { origin: "https://attacker.example" });
    emit(EVENT_TYPES.ready, { embedTenant: null }, { origin: "https://acme.svc.example:8443" });
    emit(EVENT_TYPES.ready, { embedTenant: null }, { source: window });
    expect(heard).toHaveLength(0);
    ready();
    expect(heard).toHaveLength(1);
    expect(heard[0]!.target).toBe(el);
    expect(heard[0]!.detail).toMatchObject({ type: "svc:event:ready", surface: "dashboard", payload: { embedTenant: "acme-corp", mode: "signed" } });
    await expect(el.ready).resolves.toMatchObject({ type: "svc:event:ready" });
  });

  it("names each protocol event svc-<name>", () => {
    expect(svcEmbedDomEventName(EVENT_TYPES.actionResult)).toBe("svc-action-result");
    expect(svcEmbedDomEventName(EVENT_TYPES.sessionExpiring)).toBe("svc-session-expiring");
    expect(SVC_EMBED_DOM_EVENTS).toEqual(SVC_EVENT_TYPES.map((t) => t.replace("svc:event:", "svc-")));
    expect(new Set(SVC_EMBED_DOM_EVENTS).size).toBe(SVC_EVENT_TYPES.length);
  });

  it("waits for ready, then sends an action to the exact origin and resolves with its action-result", async () => {
    const { el, posted, ready } = await mount({ src: SRC }, { answer: (type) => (type === ACTION_TYPES.setFilter ? "ignored" : "applied") });
    const result = el.setFilter('f_sales.status={"value":["completed"]}');
    await flush();
    expect(posted).toHaveLength(0);
    ready();
    await expect(result).resolves.toMatchObject({ action: ACTION_TYPES.setFilter, status: "ignored" });
    expect(posted).toEqual([
      {
        type: ACTION_TYPES.setFilter,
        payload: { filterUrlParameter: 'f_sales.status={"value":["completed"]}' },
        requestId: expect.any(String),
        targetOrigin: SVC,
      },
    ]);
    await expect(el.navigate("/chat")).resolves.toMatchObject({ status: "applied", action: ACTION_TYPES.navigate });
    expect(posted.at(-1)).toMatchObject({ type: ACTION_TYPES.navigate, payload: { path: "/chat" } });
  });

  it("rejects ready when the surface fails before it", async () => {
    const { el, emit } = await mount({ src: SRC });
    const failed = vi.fn();
    el.addEventListener("svc-error", (e) => failed(e.detail.payload.name));
    emit(EVENT_TYPES.error, { message: "session already used", name: "SessionInvalid", fatal: true });
    await expect(el.ready).rejects.toThrow("session already used");
    expect(failed).toHaveBeenCalledWith("SessionInvalid");
  });
});

describe("<svc-embed> live attributes", () => {
  it("sends theme and a changed locale at ready, then applies changes live without a reload", async () => {
    const { el, posted, ready } = await mount({ src: SRC, theme: "dark", locale: "de-DE" });
    const src = el.iframe!.src;
    ready();
    await flush();
    // The locale went in the URL; only the scheme needs an action.
    expect(posted.map((p) => [p.type, p.payload])).toEqual([[ACTION_TYPES.setColorScheme, { scheme: "dark" }]]);
    el.setAttribute("locale", "es-ES");
    el.setAttribute("theme", "auto");
    await flush();
    expect(posted.slice(1).map((p) => [p.type, p.payload])).toEqual([
      [ACTION_TYPES.setLocale, { locale: "es-ES" }],
      [ACTION_TYPES.setColorScheme, { scheme: "auto" }],
    ]);
    expect(el.iframe!.src).toBe(src);
  });

  it("refuses a theme that is not a colour scheme", async () => {
    const reported = vi.fn();
    vi.stubGlobal("reportError", reported);
    const { el, posted, ready } = await mount({ src: SRC });
    ready();
    el.setAttribute("theme", "purple");
    expect(String(reported.mock.calls[0]![0])).toContain("theme must be one of light, dark, auto");
    expect(posted).toHaveLength(0);
    vi.unstubAllGlobals();
  });

  it("swaps the session with set-session when the embed applies it, and reloads when it does not", async () => {
    const statuses: ActionResultStatus[] = ["applied", "ignored"];
    const { el, posted, ready } = await mount({ src: SRC, session: "sess_1" }, { answer: () => statuses.shift() ?? "applied" });
    const first = el.iframe!.src;
    ready();
    el.setAttribute("session", "sess_2");
    await flush();
    expect(posted.at(-1)).toMatchObject({ type: ACTION_TYPES.setSession, payload: { sessionId: "sess_2" } });
    expect(el.iframe!.src).toBe(first);
    el.setAttribute("session", "sess_3");
    await flush();
    await flush();
    expect(new URL(el.iframe!.src).searchParams.get("session")).toBe("sess_3");
  });

  it("reloads with the new session when the embed cannot swap sessions", async () => {
    const { el, posted, ready } = await mount({ src: SRC, session: "sess_1" }, { actions: [ACTION_TYPES.setFilter] });
    ready();
    el.setAttribute("session", "sess_2");
    await flush();
    expect(posted).toHaveLength(0);
    expect(new URL(el.iframe!.src).searchParams.get("session")).toBe("sess_2");
  });

  it("sizes the frame from resize events, writing only real changes", async () => {
    const { el, emit, ready } = await mount({ src: SRC });
    ready();
    let writes = 0;
    const observer = new MutationObserver((records) => (writes += records.length));
    observer.observe(el.iframe!, { attributeFilter: ["style"] });
    emit(EVENT_TYPES.resize, { height: 812.4, width: 1200 });
    await flush();
    expect([el.iframe!.style.height, writes]).toEqual(["813px", 1]);
    // Under a pixel of difference (a narrower frame, the same content height): no write.
    emit(EVENT_TYPES.resize, { height: 812.2, width: 1100 });
    await flush();
    expect(writes).toBe(1);
    emit(EVENT_TYPES.resize, { height: 640, width: 1100 });
    await flush();
    expect([el.iframe!.style.height, writes]).toEqual(["640px", 2]);
    observer.disconnect();
  });
});

describe("<svc-embed> cleanup", () => {
  it("on removal stops listening, rejects what waits and drops its frame", async () => {
    const { el, emit, ready } = await mount({ src: SRC }, { answer: () => "applied" });
    const frameWindow = el.iframe!.contentWindow;
    const pendingReady = el.ready;
    const pendingAction = el.refresh();
    el.remove();
    await expect(pendingReady).rejects.toBeInstanceOf(SvcRequestError);
    await expect(pendingAction).rejects.toMatchObject({ code: "destroyed" });
    expect(el.iframe).toBeNull();
    expect(el.shadowRoot!.querySelector("iframe")).toBeNull();
    const heard = vi.fn();
    el.addEventListener("svc-ready", heard);
    window.dispatchEvent(
      new MessageEvent("message", { data: { source: "svc-embed", direction: "event", type: EVENT_TYPES.ready }, origin: SVC, source: frameWindow }),
    );
    expect(heard).not.toHaveBeenCalled();
    void emit;
    void ready;
  });

  it("loads again when put back on the page", async () => {
    const { el } = await mount({ src: SRC, session: "sess_1" });
    el.remove();
    document.body.append(el);
    await flush();
    expect(el.iframe?.src).toBe(`${SRC}?session=sess_1`);
  });
});

describe("defineSvcEmbed", () => {
  it("registers once and can register further names", () => {
    expect(defineSvcEmbed()).toBe(SvcEmbedElement);
    expect(customElements.get("svc-embed")).toBe(SvcEmbedElement);
    const Other = defineSvcEmbed("acme-analytics");
    expect(Other).not.toBe(SvcEmbedElement);
    expect(document.createElement("acme-analytics")).toBeInstanceOf(SvcEmbedElement);
    expect(defineSvcEmbed("acme-analytics")).toBe(Other);
  });
});
