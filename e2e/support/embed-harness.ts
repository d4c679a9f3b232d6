/**
 * Helpers of the browser tests: signed sessions from the real platform, embed URLs, and the
 * raw host fixture (e2e/fixtures/host.html), whose recorded messages the tests read back.
 */
import { expect, type APIRequestContext, type Frame, type Locator, type Page } from "@playwright/test";
import { E2E } from "./env";

/** One message the host page received, as host.html records it. */
export interface RecordedMessage {
  origin: string;
  data: unknown;
  /** `event.source === iframe.contentWindow` on the host page. */
  fromEmbed: boolean;
  /** performance.now() on the host page. */
  at: number;
}

/** An svc event envelope as it arrived. */
export interface EventEnvelope {
  source: string;
  direction: string;
  type: string;
  payload: Record<string, unknown>;
  timestamp: number;
  surface: string;
  requestId?: string;
}

export interface DemoConfig {
  platformOrigin: string;
  dashboardPublicId: string;
  deploymentId: number;
}

let demoConfig: Promise<DemoConfig> | null = null;

/** The demo deployment and dashboard, as the demo host publishes them. */
export function getDemoConfig(request: APIRequestContext): Promise<DemoConfig> {
  demoConfig ??= (async () => {
    const response = await request.get(`${E2E.demoHostUrl}/config.json`);
    expect(response.ok()).toBe(true);
    return (await response.json()) as DemoConfig;
  })();
  return demoConfig;
}

/** Options of `createSession`. */
export interface SessionOptions {
  tenant?: "acme-corp" | "globex-inc";
  externalId?: string;
}

/** Mints a single-use signed session for the demo deployment with the admin token. */
export async function createSession(request: APIRequestContext, options: SessionOptions = {}): Promise<string> {
  const tenant = options.tenant ?? "acme-corp";
  const externalId = options.externalId ?? (tenant === "acme-corp" ? "ada@acme.example" : "hank@globex.example");
  return generateSession(request, { externalId, embedTenantName: tenant });
}

/** Mints a single-use signed session for the demo deployment with any `generate-session` body (creator mode, attributes…). */
export async function generateSession(request: APIRequestContext, body: Record<string, unknown>): Promise<string> {
  const { deploymentId } = await getDemoConfig(request);
  const response = await request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
    headers: { authorization: `Bearer ${E2E.adminToken}` },
    data: { deploymentId, ...body },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

/** The dashboard iframe URL for a session; `params` are extra embed URL parameters. */
/**
 * Opens host.html (another origin) framing the chat surface of `sessionId`, the frame sized to
 * `size`, and resolves with the frame once the embed is ready.
 */
export async function openChatInHost(page: Page, sessionId: string, params: Record<string, string> = {}, size = { width: 1100, height: 760 }) {
  const src = new URL("/embed/chat", E2E.platformUrl);
  src.searchParams.set("session", sessionId);
  for (const [k, v] of Object.entries(params)) src.searchParams.set(k, v);
  return openEmbedInHost(page, src.toString(), size);
}

/** Opens host.html (another origin) framing `embedUrl`, the frame sized to `size`; resolves with the frame once the embed is ready. */
export async function openEmbedInHost(page: Page, embedUrl: string, size: { width: number; height: number }) {
  const url = new URL("/host.html", E2E.hostUrl);
  url.searchParams.set("embed", embedUrl);
  await page.setViewportSize({ width: size.width + 40, height: size.height + 40 });
  await page.goto(url.toString());
  await page.evaluate(({ width, height }) => {
    const frame = document.getElementById("embed") as HTMLIFrameElement;
    frame.style.width = `${width}px`;
    frame.style.height = `${height}px`;
    frame.style.border = "0";
  }, size);
  await waitForEvent(page, "svc:event:ready");
  return page.frameLocator("#embed");
}

export function dashboardUrl(publicId: string, sessionId: string | null, params: Record<string, string> = {}): string {
  const url = new URL(`/embed/dashboard/${publicId}`, E2E.platformUrl);
  if (sessionId) url.searchParams.set("session", sessionId);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Options of `openHost`. */
export interface OpenHostOptions {
  /** Extra embed URL parameters; default `allowExport=true`. */
  params?: Record<string, string>;
  /** Set the iframe height from resize events. */
  autosize?: boolean;
  /** Add sibling frames from these origins. */
  sibling?: Array<"attacker" | "host">;
  /** Wait for `ready`; default true. */
  waitForReady?: boolean;
  tenant?: SessionOptions["tenant"];
  /** The fixture origin serving host.html; default the allowed host origin. */
  origin?: string;
}

/** Opens host.html with a fresh signed dashboard embed. */
export async function openHost(page: Page, options: OpenHostOptions = {}): Promise<DemoConfig> {
  const config = await getDemoConfig(page.request);
  const sessionId = await createSession(page.request, { tenant: options.tenant });
  const src = dashboardUrl(config.dashboardPublicId, sessionId, options.params ?? { allowExport: "true" });
  const url = new URL("/host.html", options.origin ?? E2E.hostUrl);
  url.searchParams.set("embed", src);
  if (options.autosize) url.searchParams.set("autosize", "1");
  if (options.sibling) url.searchParams.set("sibling", options.sibling.join(","));
  await page.goto(url.toString());
  if (options.waitForReady !== false) {
    // A fatal error instead of ready (it is sent at once, ready never follows) fails fast and says why.
    const first = await page.waitForFunction(
      () => {
        const events = (window as unknown as { __events: Array<{ data: { type?: string; payload?: { fatal?: boolean } } }> }).__events;
        return events.find((e) => e.data?.type === "svc:event:ready" || (e.data?.type === "svc:event:error" && e.data.payload?.fatal)) ?? null;
      },
      undefined,
      { timeout: 20_000, polling: 25 },
    );
    const event = (await first.jsonValue()) as { data: EventEnvelope };
    if (event.data.type !== "svc:event:ready") throw new Error(`the embed failed instead of getting ready: ${JSON.stringify(event.data.payload)}`);
  }
  return config;
}

/** Every message recorded by host.html so far. */
export function recorded(page: Page): Promise<RecordedMessage[]> {
  return page.evaluate(() => (window as unknown as { __events: RecordedMessage[] }).__events);
}

/** Recorded svc events (messages from the embed that look like events), in arrival order. */
export async function eventsOf(page: Page, type?: string): Promise<EventEnvelope[]> {
  const all = await recorded(page);
  return all
    .map((m) => m.data as EventEnvelope)
    .filter((d) => d !== null && typeof d === "object" && d.source === "svc-embed" && (type === undefined || d.type === type));
}

/** How many messages host.html has recorded; use as a mark to look only at later ones. */
export async function mark(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __events: unknown[] }).__events.length);
}

/** Messages recorded after `from` (a `mark`). */
export async function recordedSince(page: Page, from: number): Promise<RecordedMessage[]> {
  return (await recorded(page)).slice(from);
}

/**
 * Waits for an event of `type` recorded at or after index `from` whose payload contains
 * `payload` (a shallow match), and returns its envelope.
 */
export async function waitForEvent(
  page: Page,
  type: string,
  options: { from?: number; payload?: Record<string, unknown>; timeout?: number } = {},
): Promise<EventEnvelope> {
  const handle = await page.waitForFunction(
    ({ type, from, payload }) => {
      const events = (window as unknown as { __events: Array<{ data: { type?: string; payload?: Record<string, unknown> } }> }).__events;
      for (let i = from; i < events.length; i++) {
        const d = events[i]!.data;
        if (!d || typeof d !== "object" || d.type !== type) continue;
        if (payload && !Object.entries(payload).every(([k, v]) => JSON.stringify(d.payload?.[k]) === JSON.stringify(v))) continue;
        return d;
      }
      return null;
    },
    { type, from: options.from ?? 0, payload: options.payload ?? null },
    { timeout: options.timeout ?? 15_000, polling: 25 },
  );
  return (await handle.jsonValue()) as EventEnvelope;
}

/** Posts an arbitrary message from the host page to the embed (target origin: the platform unless given). */
export async function postRaw(page: Page, data: unknown, targetOrigin?: string): Promise<void> {
  await page.evaluate(({ data, targetOrigin }) => (window as unknown as { __post(d: unknown, o?: string): void }).__post(data, targetOrigin ?? undefined), {
    data,
    targetOrigin: targetOrigin ?? null,
  });
}

/** A well-formed action envelope. */
export function action(type: string, payload: unknown, requestId?: string): Record<string, unknown> {
  return { source: "svc-embed", direction: "action", type, payload, timestamp: Date.now(), ...(requestId ? { requestId } : {}) };
}

let requestCounter = 0;

/** Posts an action with a fresh requestId and waits for its action-result. */
export async function requestAction(
  page: Page,
  type: string,
  payload: unknown,
): Promise<{ requestId: string; action: string; status: string; reason?: string; envelope: EventEnvelope }> {
  const requestId = `req-${Date.now().toString(36)}-${++requestCounter}`;
  const from = await mark(page);
  await postRaw(page, action(type, payload, requestId));
  const envelope = await waitForEvent(page, "svc:event:action-result", { from, payload: { requestId } });
  return { ...(envelope.payload as { requestId: string; action: string; status: string; reason?: string }), envelope };
}

/** The embed's frame (the dashboard iframe) on a host page. */
export function embedFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(`${E2E.platformUrl}/embed/`));
  if (!frame) throw new Error("the embed frame is not there");
  return frame;
}

/** Checks the envelope fields every event must carry. */
export function expectEventEnvelope(event: EventEnvelope, type: string): void {
  expect(event.source).toBe("svc-embed");
  expect(event.direction).toBe("event");
  expect(event.type).toBe(type);
  expect(event.surface).toBe("dashboard");
  expect(typeof event.timestamp).toBe("number");
  expect(Math.abs(event.timestamp - Date.now())).toBeLessThan(120_000);
  expect(event.payload).toBeInstanceOf(Object);
  expect(event).not.toHaveProperty("requestId");
}

/** Every message the host got came from the embed's window and the platform origin. */
export async function expectAllFromEmbed(page: Page): Promise<void> {
  const messages = await recorded(page);
  for (const m of messages) {
    expect(m.origin).toBe(E2E.platformUrl);
    expect(m.fromEmbed).toBe(true);
  }
}

/** Waits until every visible widget of the dashboard has settled (ready or error). */
export async function waitForWidgetsSettled(page: Page): Promise<void> {
  const frame = page.frameLocator("#embed");
  await expect(frame.getByTestId("dashboard")).toBeVisible();
  await expect(frame.locator('[data-testid^="widget-"][data-state="loading"]')).toHaveCount(0);
}

/**
 * Pixels of a widget's chart drawing close (±3 per channel, opaque) to each colour (RGB hex),
 * and the drawing's pixel count. Charts are SVG (drawn by the chart worker) or a canvas (the
 * page-drawn fallback); an SVG is rasterised in the embed at its own size. -1s when no chart is drawn.
 */
export function countChartColours(page: Page, widgetId: string, colours: string[]): Promise<{ counts: number[]; total: number }> {
  return embedFrame(page).evaluate(
    async ({ widgetId, colours }) => {
      const chart = document.querySelector(`[data-testid="widget-${widgetId}"] .svc-chart-canvas`);
      const svg = chart?.querySelector("svg");
      let canvas = chart?.querySelector("canvas") ?? null;
      if (svg) {
        const image = new Image();
        image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
        await image.decode();
        canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        canvas.getContext("2d")!.drawImage(image, 0, 0);
      }
      if (!canvas || canvas.width === 0) return { counts: colours.map(() => -1), total: 0 };
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      const targets = colours.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
      const counts = colours.map(() => 0);
      for (let p = 0; p < data.length; p += 4) {
        if (data[p + 3]! < 250) continue;
        targets.forEach((t, i) => {
          if (Math.abs(data[p]! - t[0]!) <= 3 && Math.abs(data[p + 1]! - t[1]!) <= 3 && Math.abs(data[p + 2]! - t[2]!) <= 3) counts[i]!++;
        });
      }
      return { counts, total: data.length / 4 };
    },
    { widgetId, colours },
  );
}

/**
 * Whether an AI widget's answer (`ai-answer-<id>`) is whole: written, nothing of it below its
 * box (no scrolling), and its Regenerate button inside the card.
 */
export function wholeAnswer(answer: Locator): Promise<boolean> {
  return answer.evaluate((box) => {
    const card = box.closest(".svc-widget")!.getBoundingClientRect();
    const button = box.querySelector('[data-testid="ai-regenerate"]')?.getBoundingClientRect();
    const written = (box.querySelector(".svc-ai-markdown")?.textContent ?? "").length > 20;
    return written && !!button && box.scrollHeight <= box.clientHeight + 1 && button.bottom <= card.bottom;
  });
}
