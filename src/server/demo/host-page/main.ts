/**
 * The demo host page. Everything here is what a customer's page would do: ask its own
 * backend for a session, frame the embed, listen with origin checks, send actions to the
 * tenant origin (never "*"), renew the session before it expires, size the iframe.
 */
import { connectSvcEmbed, type SvcEmbedConnection } from "../../../host";
import { SVC_EVENT_TYPES } from "../../../protocol";
import { mountThreeFrames } from "./three-frames";

interface DemoConfig {
  platformOrigin: string;
  dashboardPublicId: string;
  appDashboardPublicId: string | null;
  /** A report of the demo dashboard, for the "Three frames" view. */
  reportPublicId: string | null;
  deploymentId: number;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const iframe = $<HTMLIFrameElement>("embed");
const status = $("status");
const log = $("log");
const tenantSelect = $<HTMLSelectElement>("tenant");
let connection: SvcEmbedConnection | null = null;
/** The "Three frames" view's connections (dashboard, report, chat); the console's actions go to each. */
let trio: SvcEmbedConnection[] = [];
// "dashboard": the published dashboard; "creator": the creator-mode app for the signed-in user.
/** Whether the frame shows the chat surface (after a `navigate`), which sizes itself to its frame. */
let onChat = false;
type View = "dashboard" | "creator" | "trio";
const viewOf = (name: string | null | undefined): View => (name === "creator" || name === "trio" ? name : "dashboard");
let view: View = viewOf(new URLSearchParams(location.search).get("view"));
/** Each mount's number: a mount that a newer one replaced (a tab or tenant chosen meanwhile) stops at its next step. */
let mounts = 0;
/** Whether the first mount has begun; a tab chosen before (while the page loads its config) is what it shows. */
let started = false;
// Bound before the config is read: a tab clicked while the page still loads is not lost.
document.querySelectorAll<HTMLButtonElement>("[data-view]").forEach((b) =>
  b.addEventListener("click", () => {
    view = viewOf(b.dataset.view);
    if (started) void mount();
  }),
);
// Read before anything mounts (top-level await): every function below uses it.
const config: DemoConfig = await (await fetch("/config.json")).json();

async function newSession(): Promise<string> {
  const res = await fetch("/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tenant: tenantSelect.value, ...(view === "creator" ? { creatorMode: true } : {}) }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.message ?? `session request failed (${res.status})`);
  return body.sessionId as string;
}

function addLog(type: string, payload: unknown, kind: "event" | "action" | "result" = "event") {
  const li = document.createElement("li");
  if (type.endsWith(":error")) li.className = "error";
  const head = document.createElement("div");
  const t = document.createElement("span");
  t.className = "type";
  t.textContent = (kind === "action" ? "→ " : "← ") + type;
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = new Date().toLocaleTimeString();
  head.append(t, time);
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(payload);
  li.append(head, pre);
  log.prepend(li);
  while (log.children.length > 200) log.lastElementChild?.remove();
}

async function send(type: string, payload: Record<string, unknown>) {
  if (view === "trio") {
    addLog(type, payload, "action");
    const results = await Promise.all(trio.map((c) => c.request({ type, payload } as never, { timeoutMs: 5000 }).catch((err: unknown) => String(err))));
    addLog("svc:event:action-result", results, "result");
    return;
  }
  if (!connection) return;
  addLog(type, payload, "action");
  try {
    const result = await connection.request({ type, payload } as never, { timeoutMs: 5000 });
    addLog("svc:event:action-result", result, "result");
  } catch (err) {
    addLog("action timed out", { type, error: String(err) }, "result");
  }
}

/** The console's controls back at their defaults: a new session starts from the deployment's theme and locale. */
function resetControls() {
  document.querySelectorAll<HTMLInputElement>("aside.console input").forEach((input) => (input.value = input.defaultValue));
  document.querySelectorAll<HTMLSelectElement>("aside.console select").forEach((select) => {
    const initial = [...select.options].findIndex((o) => o.defaultSelected);
    select.selectedIndex = Math.max(0, initial);
  });
  document.querySelectorAll<HTMLButtonElement>("[data-scheme]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.scheme === "light")));
}
$(new URLSearchParams(location.search).get("dashboard") === "app" ? "nav-app" : "nav-classic").setAttribute("aria-current", "page");

async function mount() {
  const mine = ++mounts;
  connection?.destroy();
  connection = null;
  for (const c of trio.splice(0)) c.destroy();
  resetControls();
  document.querySelectorAll<HTMLButtonElement>("[data-view]").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.view === view)));
  $("trio").hidden = view !== "trio";
  $("single").hidden = view === "trio";
  document.querySelector<HTMLElement>(".dash-switch")!.hidden = view === "trio";
  if (view === "trio") {
    iframe.removeAttribute("src");
    $("stage-title").textContent = "Three frames, three sessions";
    status.textContent = "A dashboard, a report and a chat, each with its own session, filters and events.";
    const frames = await mountThreeFrames($("trio"), config, newSession);
    if (mine !== mounts) for (const c of frames) c.destroy();
    else trio = frames;
    return;
  }
  status.textContent = "Starting a signed session…";
  const sessionId = await newSession();
  if (mine !== mounts) return;
  // `?dashboard=app` shows the demo app dashboard (a dashboard written as an app).
  const showApp = new URLSearchParams(location.search).get("dashboard") === "app" && config.appDashboardPublicId;
  const dashboardId = showApp ? config.appDashboardPublicId : config.dashboardPublicId;
  const url = new URL(view === "creator" ? `/embed/d/${config.deploymentId}/app` : `/embed/dashboard/${dashboardId}`, config.platformOrigin);
  url.searchParams.set("session", sessionId);
  url.searchParams.set("allowExport", "true");
  $("stage-title").textContent = view === "creator" ? "Build your own analytics" : "Sales analytics";
  iframe.title = view === "creator" ? "Analytics workspace" : "Sales dashboard";
  if (view === "creator") iframe.style.height = "820px";
  iframe.src = url.toString();
  connection = connectSvcEmbed(iframe, { origin: config.platformOrigin });
  for (const type of SVC_EVENT_TYPES) {
    // Results are logged once, by `send`, beside the action they answer.
    if (type === "svc:event:action-result") continue;
    connection.on(type as never, (event: { type: string; payload: unknown }) => {
      addLog(event.type, event.payload);
      const p = event.payload as Record<string, unknown>;
      if (event.type === "svc:event:ready") status.textContent = `Connected · ${p.mode} mode · tenant ${p.embedTenant ?? "none"}`;
      if (event.type === "svc:event:dashboard-loaded") status.textContent += ` · ${p.widgetCount} widgets in ${p.loadDurationMs} ms`;
      // The chat fills whatever height it is given (its input stays at the bottom): it gets a
      // tall frame of its own; the dashboard is as tall as its content.
      if (event.type === "svc:event:view") onChat = p.surface === "chat";
      if (event.type === "svc:event:view" && view === "dashboard" && onChat) iframe.style.height = "760px";
      if (event.type === "svc:event:resize" && typeof p.height === "number" && view === "dashboard" && !onChat)
        iframe.style.height = `${Math.max(400, Math.ceil(p.height))}px`;
      if (event.type === "svc:event:session-expiring") void renew();
    });
  }
}

async function renew() {
  try {
    const sessionId = await newSession();
    await send("svc:action:set-session", { sessionId });
  } catch (err) {
    status.textContent = `Session renewal failed: ${String(err)}`;
  }
}

document.querySelectorAll<HTMLButtonElement>("[data-scheme]").forEach((b) =>
  b.addEventListener("click", () => {
    document.querySelectorAll<HTMLButtonElement>("[data-scheme]").forEach((other) => other.setAttribute("aria-pressed", String(other === b)));
    void send("svc:action:set-color-scheme", { scheme: b.dataset.scheme });
  }),
);
// Surfaces inside the same frame: `navigate` to the dashboard, the app or the chat.
const surfacePaths: Record<string, string> = {
  dashboard: `/dashboard/${config.dashboardPublicId}`,
  app: `/d/${config.deploymentId}/app/`,
  chat: "/chat",
};
document
  .querySelectorAll<HTMLButtonElement>("[data-navigate]")
  .forEach((b) => b.addEventListener("click", () => void send("svc:action:navigate", { path: surfacePaths[b.dataset.navigate!] ?? "/" })));
$("apply-theme").addEventListener("click", () => {
  const font = $<HTMLSelectElement>("font").value;
  void send("svc:action:set-theme", {
    primaryColor: $<HTMLInputElement>("primary").value,
    borderRadius: Number($<HTMLSelectElement>("radius").value),
    ...(font ? { font } : {}),
  });
});
$("locale").addEventListener("change", (e) => void send("svc:action:set-locale", { locale: (e.target as HTMLSelectElement).value }));
$("timezone").addEventListener("change", (e) => void send("svc:action:set-timezone", { timezone: (e.target as HTMLSelectElement).value }));
$("apply-filter").addEventListener("click", () => void send("svc:action:set-filter", { filterUrlParameter: $<HTMLInputElement>("filter").value }));
$("refresh").addEventListener("click", () => void send("svc:action:refresh", {}));
/**
 * What the page is about, told to the chat (`svc:action:set-ai-context`): answers are narrowed to
 * it under the viewer's row-level security, and the chat's header shows its title. `{}` clears it.
 */
const aiContexts: Record<string, Record<string, unknown>> = {
  germany: {
    title: "Account: Germany, completed orders",
    filters: [
      { member: "sales.customers_country", operator: "equals", value: ["DE"] },
      { member: "sales.status", operator: "equals", value: ["completed"] },
    ],
    views: ["sales"],
  },
  electronics: { title: "Category: Electronics", filters: [{ member: "sales.products_category", operator: "equals", value: ["Electronics"] }] },
};
$("apply-ai-context").addEventListener("click", () => void send("svc:action:set-ai-context", aiContexts[$<HTMLSelectElement>("ai-context").value] ?? {}));
$("clear-ai-context").addEventListener("click", () => void send("svc:action:set-ai-context", {}));
$("renew").addEventListener("click", () => void renew());
$("clear").addEventListener("click", () => (log.textContent = ""));
tenantSelect.addEventListener("change", () => void mount());
started = true;
await mount().catch((err) => (status.textContent = `Could not start the embed: ${String(err)}`));
