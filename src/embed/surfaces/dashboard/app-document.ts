/**
 * The document a dashboard app runs in: the app's HTML (`app.html`, or `app.files[app.entry]`
 * with the scripts and style sheets it names from `app.files` inlined), preceded by a
 * Content-Security-Policy that allows no network at all (no fetch, XHR, WebSocket, images or
 * fonts from anywhere but `data:`/`blob:`), scripts only inline or from the platform's own
 * library folder, no forms, no frames, no workers; the platform's libraries named in
 * `manifest.dependencies`; and the small `svc` runtime that speaks the app channel.
 *
 * It goes into `<iframe sandbox="allow-scripts" srcdoc>`: an opaque origin (no cookies, no
 * storage, no access to the embed's DOM or token), no top navigation, no popups, no forms.
 * The policy is the first element of the document, so nothing in the app's HTML comes before it,
 * and a policy the app adds can only narrow it.
 */
import { APP_CHANNEL_SOURCE, APP_MESSAGE_TYPES, SURFACE_MESSAGE_TYPES } from "../../../protocol";
import { APP_LIBRARY_PATH, resolveAppDependencies } from "../../../schema/app-libraries";
import type { DashboardConfig } from "../../../schema/dashboard";

export interface AppDocument {
  html: string;
  /** Dependencies the platform does not serve (left out, reported as an error). */
  unknownDependencies: string[];
  /** Why there is no app to show, or null. */
  problem: string | null;
}

export function appContentSecurityPolicy(platformOrigin: string): string {
  return [
    "default-src 'none'",
    // The app's own code is inline; eval adds nothing it could not do already (vega compiles
    // its expressions with it), and no script can reach the network either way.
    `script-src 'unsafe-inline' 'unsafe-eval' ${platformOrigin}${APP_LIBRARY_PATH}`,
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
 * The runtime the app sees as `window.svc`. It accepts messages only from the parent window
 * and only of the surface's two types.
 */
function runtimeScript(platformOrigin: string): string {
  const S = JSON.stringify(APP_CHANNEL_SOURCE);
  const T = JSON.stringify({ ...APP_MESSAGE_TYPES, ...SURFACE_MESSAGE_TYPES });
  return `(function () {
  "use strict";
  var S = ${S}, T = ${T}, ORIGIN = ${JSON.stringify(platformOrigin)};
  var parentWindow = window.parent, pending = new Map(), listeners = [], context = null, seq = 0, loadedSent = false;
  function post(message) { message.source = S; parentWindow.postMessage(message, ORIGIN); }
  function applyScheme(c) {
    document.documentElement.dataset.scheme = c.scheme;
    document.documentElement.style.colorScheme = c.scheme;
    document.documentElement.lang = c.locale;
  }
  window.addEventListener("message", function (event) {
    if (event.source !== parentWindow) return;
    var m = event.data;
    if (!m || typeof m !== "object" || m.source !== S) return;
    if (m.type === T.context) {
      context = m;
      applyScheme(m);
      listeners.slice().forEach(function (fn) { try { fn(m); } catch (e) { svc.error(String(e && e.message || e)); } });
    } else if (m.type === T.result && pending.has(m.requestId)) {
      var p = pending.get(m.requestId);
      pending.delete(m.requestId);
      if (!m.ok) p.reject(new Error(m.error)); else if (p.python) p.resolve(m.python || { stdout: "" }); else p.resolve({ rows: m.rows, columns: m.columns });
    }
  });
  var svc = {
    /** Rows of one of the dashboard's reports (by id or name), with the dashboard's filters. */
    query: function (report) {
      var info = typeof report === "number" ? { reportId: report } : (context && context.reports.filter(function (r) { return r.name === report; })[0]);
      if (!info) return Promise.reject(new Error("No report " + String(report) + " on this dashboard"));
      var requestId = "q" + (++seq);
      return new Promise(function (resolve, reject) {
        pending.set(requestId, { resolve: resolve, reject: reject });
        post({ type: T.query, requestId: requestId, reportId: info.reportId });
      });
    },
    /** Runs one of the dashboard's Python reports on the platform: { stdout, table?, html?, image? }. */
    python: function (report) {
      var info = typeof report === "number" ? { reportId: report } : (context && context.reports.filter(function (r) { return r.name === report; })[0]);
      if (!info) return Promise.reject(new Error("No report " + String(report) + " on this dashboard"));
      var requestId = "p" + (++seq);
      return new Promise(function (resolve, reject) {
        pending.set(requestId, { resolve: resolve, reject: reject, python: true });
        post({ type: T.python, requestId: requestId, reportId: info.reportId });
      });
    },
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

export function buildAppDocument(config: DashboardConfig, platformOrigin: string): AppDocument {
  const app = config.app ?? null;
  if (!app) return { html: "", unknownDependencies: [], problem: "The dashboard is of kind APP but has no app" };
  const { html, problem } = entryHtml(app);
  if (html === null) return { html: "", unknownDependencies: [], problem };
  const { files, unknown } = resolveAppDependencies(app.manifest?.dependencies ?? null);
  const libraries = files.map((f) => `<script src="${escapeAttribute(platformOrigin + APP_LIBRARY_PATH + f)}"></script>`).join("");
  const head =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(appContentSecurityPolicy(platformOrigin))}">` +
    `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<style>${BASE_STYLE}</style><script>${inlineScript(runtimeScript(platformOrigin))}</script>${libraries}</head><body>`;
  return { html: head + html + "</body></html>", unknownDependencies: unknown, problem: null };
}
