/**
 * The app's end of the app channel: the script the platform serves at `/embed/app-runtime.js`,
 * the first script of every dashboard app's document, which the app sees as `window.svc`.
 *
 * It creates a `MessageChannel`, keeps one port to itself and posts the other to the parent
 * window, at the platform's exact origin (the origin it was served from), in the channel's one
 * `app:connect` message. Everything after that goes over the port, both ways; the runtime reads
 * no message from its window. Requests made before the surface has taken the port wait in the
 * port's queue; a report asked for by name waits for the first context (it names the reports); a
 * report the surface has already sent ahead (`surface:preloaded`, for the current context) is
 * answered from those rows, once. `error` and `drilldown` texts are cut to the channel's bounds.
 */
import { APP_CHANNEL_SOURCE, APP_CONNECT_TYPE, APP_MESSAGE_TYPES, MAX_APP_EVENT_TEXT_LENGTH, SURFACE_MESSAGE_TYPES } from "./app-channel";

export function appRuntimeScript(): string {
  const S = JSON.stringify(APP_CHANNEL_SOURCE);
  const T = JSON.stringify({ ...APP_MESSAGE_TYPES, ...SURFACE_MESSAGE_TYPES, connect: APP_CONNECT_TYPE });
  return `(function () {
  "use strict";
  // The platform's origin: the one this script was served from.
  var S = ${S}, T = ${T}, MAX_TEXT = ${MAX_APP_EVENT_TEXT_LENGTH}, ORIGIN = new URL(document.currentScript.src).origin;
  // Before any of the app's code: WebRTC is not governed by the policy, so it goes (every
  // RTC* interface, with webkitRTCPeerConnection). Each of the app's scripts does the same first
  // (a window of a nested frame has its own), so no script runs where WebRTC is still there.
  Object.getOwnPropertyNames(window).forEach(function (name) { if (/^(webkit)?RTC/.test(name)) delete window[name]; });
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
    drilldown: function (member, value) { var m = { type: T.drilldown, member: member }; if (value !== undefined) m.value = typeof value === "string" ? value.slice(0, MAX_TEXT) : value; post(m); },
    error: function (message, name) { var m = { type: T.error, message: String(message).slice(0, MAX_TEXT) || "error" }; if (name) m.name = String(name).slice(0, 100); post(m); },
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
