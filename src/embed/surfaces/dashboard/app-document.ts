/**
 * The document a dashboard app runs in: the app's HTML (`app.html`, or `app.files[app.entry]`
 * with the scripts and style sheets it names from `app.files` inlined), preceded by a
 * Content-Security-Policy that allows no network at all (no fetch, XHR, WebSocket, images or
 * fonts from anywhere but `data:`/`blob:`), scripts only as the document's own script elements
 * (each with the document's nonce) or from the platform's own library folder, no forms, no
 * frames, no workers; the platform's libraries named in `manifest.dependencies`; and the small
 * `svc` runtime that speaks the app channel and removes WebRTC before the app's code runs.
 *
 * It goes into `<iframe sandbox="allow-scripts" srcdoc>`: an opaque origin (no cookies, no
 * storage, no access to the embed's DOM or token), no top navigation, no popups, no forms.
 * The policy is the first element of the document, so nothing in the app's HTML comes before it,
 * and a policy the app adds can only narrow it.
 */
import { APP_CHANNEL_SOURCE, APP_CONNECT_TYPE, APP_MESSAGE_TYPES, SURFACE_MESSAGE_TYPES } from "../../../protocol";
import { APP_LIBRARY_PATH, resolveAppDependencies } from "../../../schema/app-libraries";
import type { DashboardConfig } from "../../../schema/dashboard";

export interface AppDocument {
  html: string;
  /** Dependencies the platform does not serve (left out, reported as an error). */
  unknownDependencies: string[];
  /** Why there is no app to show, or null. */
  problem: string | null;
  /**
   * The reports the app's code names in a literal `svc.query("name")` / `svc.query(id)` call
   * (at most MAX_STARTING_REPORTS): the surface runs them while the frame is still loading.
   */
  startingReports: (string | number)[];
}

/** At most this many reports are run ahead of the app's asking. */
export const MAX_STARTING_REPORTS = 8;

/** The report names and ids the app's code passes to `svc.query` as literals, in order, each once. */
export function startingReports(code: string): (string | number)[] {
  const found: (string | number)[] = [];
  for (const match of code.matchAll(/\bsvc\.query\(\s*(?:"([^"\\\n]{1,255})"|'([^'\\\n]{1,255})'|`([^`\\$\n]{1,255})`|(\d{1,15}))\s*\)/g)) {
    const ref = match[4] !== undefined ? Number(match[4]) : (match[1] ?? match[2] ?? match[3])!;
    if (!found.includes(ref)) found.push(ref);
    if (found.length >= MAX_STARTING_REPORTS) break;
  }
  return found;
}

export function appContentSecurityPolicy(platformOrigin: string, nonce: string): string {
  return [
    "default-src 'none'",
    // Scripts run only as elements of the document the platform wrote (each carries this
    // document's nonce) or from the platform's library folder. A document the app makes in a
    // frame of its own inherits this policy without knowing the nonce, so no script runs there:
    // the runtime's removal of WebRTC (below) cannot be undone from a fresh realm. Inline event
    // handler attributes, javascript: URLs and script elements the app inserts later do not run
    // either. eval adds nothing the app could not do already (vega compiles its expressions with
    // it), and no script can reach the network either way.
    `script-src 'nonce-${nonce}' 'unsafe-eval' ${platformOrigin}${APP_LIBRARY_PATH}`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "font-src data:",
    "media-src data: blob:",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `</script` inside inlined code would end the element early. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1");
}
function inlineStyle(code: string): string {
  return code.replace(/<\/(style)/gi, "<\\/$1");
}

/** The app's entry HTML with `<script src>` and `<link rel=stylesheet href>` of its own files inlined. */
export function entryHtml(app: NonNullable<DashboardConfig["app"]>): { html: string | null; problem: string | null } {
  if (typeof app.html === "string" && app.html.trim()) return { html: app.html, problem: null };
  const files = app.files ?? {};
  const entry = app.entry ?? (Object.prototype.hasOwnProperty.call(files, "index.html") ? "index.html" : null);
  if (!entry) return { html: null, problem: "The app has neither html nor an entry file" };
  if (!Object.prototype.hasOwnProperty.call(files, entry))
    return { html: null, problem: `The app's entry file "${entry.slice(0, 255)}" is not among its files` };
  const fileOf = (ref: string | null) => {
    if (!ref) return null;
    const name = ref.replace(/^\.\//, "");
    return Object.prototype.hasOwnProperty.call(files, name) ? files[name]! : null;
  };
  let html = files[entry]!;
  html = html.replace(/<script\b([^>]*)\bsrc\s*=\s*["']([^"']+)["']([^>]*)>\s*<\/script>/gi, (whole, before: string, src: string, after: string) => {
    const code = fileOf(src);
    if (code === null) return whole;
    const attributes = `${before} ${after}`.trim();
    return `<script${attributes ? " " + attributes : ""}>${inlineScript(code)}</script>`;
  });
  html = html.replace(/<link\b[^>]*>/gi, (tag) => {
    if (!/\brel\s*=\s*["']?stylesheet/i.test(tag)) return tag;
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1] ?? null;
    const css = fileOf(href);
    return css === null ? tag : `<style>${inlineStyle(css)}</style>`;
  });
  return { html, problem: null };
}

/**
 * The runtime the app sees as `window.svc`. It runs before any of the app's code: it creates a
 * `MessageChannel`, keeps one port to itself and posts the other to the parent window, at the
 * platform's exact origin, in the channel's one `app:connect` message. Everything after that goes
 * over the port, both ways; the runtime reads no message from its window. Requests made before
 * the surface has taken the port wait in the port's queue; a report asked for by name waits for
 * the first context (it names the reports); a report the surface has already sent ahead
 * (`surface:preloaded`, for the current context) is answered from those rows, once.
 */
function runtimeScript(platformOrigin: string): string {
  const S = JSON.stringify(APP_CHANNEL_SOURCE);
  const T = JSON.stringify({ ...APP_MESSAGE_TYPES, ...SURFACE_MESSAGE_TYPES, connect: APP_CONNECT_TYPE });
  return `(function () {
  "use strict";
  var S = ${S}, T = ${T}, ORIGIN = ${JSON.stringify(platformOrigin)};
  // Before any of the app's code: WebRTC is not governed by the policy, so it goes (every
  // RTC* interface, with webkitRTCPeerConnection); and the document's nonce is kept from the app
  // (the policy's <meta> goes, the policy stays in force; the nonce properties read empty;
  // violation events and reports, which quote the policy, are not delivered), so it cannot
  // give a script of its own to a nested document, the one place a fresh WebRTC could come from.
  Object.getOwnPropertyNames(window).forEach(function (name) { if (/^(webkit)?RTC/.test(name)) delete window[name]; });
  var policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  if (policy) policy.remove();
  var empty = { get: function () { return ""; }, set: function () {}, configurable: false, enumerable: true };
  [window.HTMLElement, window.SVGElement, window.MathMLElement].forEach(function (type) { if (type) Object.defineProperty(type.prototype, "nonce", empty); });
  [window.SecurityPolicyViolationEvent, window.CSPViolationReportBody].forEach(function (type) { if (type) Object.defineProperty(type.prototype, "originalPolicy", empty); });
  window.addEventListener("securitypolicyviolation", function (e) { e.stopImmediatePropagation(); }, true);
  delete window.ReportingObserver;
  var channel = new MessageChannel(), port = channel.port1;
  var pending = new Map(), preloaded = new Map(), listeners = [], waiting = [], context = null, seq = 0, loadedSent = false;
  function post(message) { message.source = S; port.postMessage(message); }
  function applyScheme(c) {
    document.documentElement.dataset.scheme = c.scheme;
    document.documentElement.style.colorScheme = c.scheme;
    document.documentElement.lang = c.locale;
  }
  port.onmessage = function (event) {
    var m = event.data;
    if (!m || typeof m !== "object" || m.source !== S) return;
    if (m.type === T.context) {
      // Rows run ahead for an earlier context are not this context's.
      preloaded.clear();
      context = m;
      applyScheme(m);
      waiting.splice(0).forEach(function (resolve) { resolve(m); });
      listeners.slice().forEach(function (fn) { try { fn(m); } catch (e) { svc.error(String(e && e.message || e)); } });
    } else if (m.type === T.result && pending.has(m.requestId)) {
      var p = pending.get(m.requestId);
      pending.delete(m.requestId);
      if (!m.ok) p.reject(new Error(m.error)); else if (p.python) p.resolve(m.python || { stdout: "" }); else p.resolve({ rows: m.rows, columns: m.columns });
    } else if (m.type === T.preloaded && typeof m.reportId === "number") {
      preloaded.set(m.reportId, { rows: m.rows, columns: m.columns });
    }
  };
  window.parent.postMessage({ source: S, type: T.connect }, ORIGIN, [channel.port2]);
  function reportOf(report) {
    if (typeof report === "number") return Promise.resolve({ reportId: report });
    var named = function (c) { return c.reports.filter(function (r) { return r.name === report; })[0]; };
    return (context ? Promise.resolve(context) : new Promise(function (resolve) { waiting.push(resolve); })).then(function (c) {
      var info = named(c);
      if (!info) throw new Error("No report " + String(report) + " on this dashboard");
      return info;
    });
  }
  function ask(type, report, python) {
    return reportOf(report).then(function (info) {
      var ready = python ? null : preloaded.get(info.reportId);
      if (ready) {
        preloaded.delete(info.reportId);
        return ready;
      }
      var requestId = (python ? "p" : "q") + (++seq);
      return new Promise(function (resolve, reject) {
        pending.set(requestId, { resolve: resolve, reject: reject, python: python });
        post({ type: type, requestId: requestId, reportId: info.reportId });
      });
    });
  }
  var svc = {
    /** Rows of one of the dashboard's reports (by id or name), with the dashboard's filters. */
    query: function (report) { return ask(T.query, report, false); },
    /** Runs one of the dashboard's Python reports on the platform: { stdout, table?, html?, image? }. */
    python: function (report) { return ask(T.python, report, true); },
    setFilter: function (member, filter) { post({ type: T.setFilter, member: member, filter: filter === undefined ? null : filter }); },
    drilldown: function (member, value) { var m = { type: T.drilldown, member: member }; if (value !== undefined) m.value = value; post(m); },
    error: function (message, name) { var m = { type: T.error, message: String(message).slice(0, 2000) || "error" }; if (name) m.name = String(name).slice(0, 100); post(m); },
    loaded: function () { if (loadedSent) return; loadedSent = true; post({ type: T.loaded }); },
    onContext: function (fn) { listeners.push(fn); if (context) fn(context); },
    get context() { return context; }
  };
  var lastHeight = -1;
  function reportSize() {
    var h = Math.ceil(document.documentElement.scrollHeight);
    if (h !== lastHeight) { lastHeight = h; post({ type: T.size, height: h }); }
  }
  if (typeof ResizeObserver === "function") {
    document.addEventListener("DOMContentLoaded", function () { new ResizeObserver(reportSize).observe(document.body); reportSize(); });
  }
  window.addEventListener("error", function (e) { svc.error(e.message || "Script error", "AppError"); });
  window.addEventListener("unhandledrejection", function (e) { var r = e.reason; svc.error(r && r.message ? r.message : String(r), "AppError"); });
  Object.defineProperty(window, "svc", { value: Object.freeze(svc), writable: false, configurable: false });
})();`;
}

const BASE_STYLE = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--svc-text:#1f2937;--svc-muted:#6b7280;--svc-surface:#ffffff;--svc-border:#e5e7eb;--svc-accent:#2563eb}
:root[data-scheme=dark]{color-scheme:dark;--svc-text:#e5e7eb;--svc-muted:#9ca3af;--svc-surface:#111827;--svc-border:#374151;--svc-accent:#60a5fa}
html,body{margin:0;background:transparent;color:var(--svc-text)}`;

/** A fresh nonce for one app document (128 random bits). */
export function appDocumentNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The nonce on every script element of the document as the browser will parse it, and on no
 * other text: the document is parsed (scripts do not run in a parsed document), each script
 * element gets the nonce, and it is written out again. A `<script>` inside an attribute (an
 * `<iframe srcdoc>`) or in raw text is not an element and gets none; nor does one inside
 * `<noscript>` (here scripting is off, so it parses as an element; in the frame it is text, and
 * the nonce would be readable there).
 */
function withNonces(html: string, nonce: string): string {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const script of parsed.querySelectorAll("script")) {
    if (script.closest("noscript")) script.removeAttribute("nonce");
    else script.setAttribute("nonce", nonce);
  }
  return "<!doctype html>" + parsed.documentElement.outerHTML;
}

export function buildAppDocument(config: DashboardConfig, platformOrigin: string, nonce: string = appDocumentNonce()): AppDocument {
  const app = config.app ?? null;
  if (!app) return { html: "", unknownDependencies: [], problem: "The dashboard is of kind APP but has no app", startingReports: [] };
  const { html, problem } = entryHtml(app);
  if (html === null) return { html: "", unknownDependencies: [], problem, startingReports: [] };
  const { files, unknown } = resolveAppDependencies(app.manifest?.dependencies ?? null);
  const urls = files.map((f) => escapeAttribute(platformOrigin + APP_LIBRARY_PATH + f));
  // Each library script blocks the parser until it has run, and a document with a policy in a
  // <meta> gets no look-ahead fetching: preload links ask for all of them at once.
  const preloads = urls.map((url) => `<link rel="preload" as="script" href="${url}">`).join("");
  const libraries = urls.map((url) => `<script src="${url}"></script>`).join("");
  const head =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(appContentSecurityPolicy(platformOrigin, nonce))}">` +
    `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `${preloads}<style>${BASE_STYLE}</style><script>${inlineScript(runtimeScript(platformOrigin))}</script>${libraries}</head><body>`;
  return { html: withNonces(head + html + "</body></html>", nonce), unknownDependencies: unknown, problem: null, startingReports: startingReports(html) };
}
