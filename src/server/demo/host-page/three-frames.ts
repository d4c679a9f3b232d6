/**
 * The demo host's "Three frames" view: a dashboard, a report and a chat side by side, each its
 * own embed — its own signed session (one per frame: a session id works once), its own
 * connection (messages told apart by the frame's window), its own filters and event log.
 */
import { connectSvcEmbed, type SvcEmbedConnection } from "../../../host";
import { SVC_EVENT_TYPES } from "../../../protocol";

export interface ThreeFramesConfig {
  platformOrigin: string;
  dashboardPublicId: string;
  reportPublicId: string | null;
}

type FrameKind = "dashboard" | "report" | "chat";

const FRAMES: { kind: FrameKind; title: string; path: (c: ThreeFramesConfig) => string | null; filter: string }[] = [
  { kind: "dashboard", title: "Dashboard", path: (c) => `/embed/dashboard/${c.dashboardPublicId}`, filter: 'f_sales.status={"value":["completed"]}' },
  {
    kind: "report",
    title: "Report",
    path: (c) => (c.reportPublicId ? `/embed/report/${c.reportPublicId}` : null),
    filter: 'f_sales.customers_country={"value":["US"]}',
  },
  { kind: "chat", title: "Chat", path: () => "/embed/chat", filter: "" },
];

function element(tag: string, props: { className?: string; textContent?: string } = {}, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  if (props.textContent !== undefined) el.textContent = props.textContent;
  el.append(...children);
  return el;
}

function logLine(log: HTMLElement, text: string, payload: unknown, error = false) {
  const li = element("li", { className: error ? "error" : "" }, element("div", {}, element("span", { className: "type", textContent: text })));
  li.append(element("pre", { textContent: JSON.stringify(payload) }));
  log.prepend(li);
  while (log.children.length > 60) log.lastElementChild?.remove();
}

/** Mounts the three frames into `container`; resolves with their connections (the console's actions go to all three). */
export async function mountThreeFrames(container: HTMLElement, config: ThreeFramesConfig, newSession: () => Promise<string>): Promise<SvcEmbedConnection[]> {
  container.textContent = "";
  const connections: SvcEmbedConnection[] = [];
  for (const frame of FRAMES) {
    const path = frame.path(config);
    if (!path) continue;
    const status = element("p", { className: "status", textContent: "Starting a signed session…" });
    const iframe = document.createElement("iframe");
    iframe.title = `${frame.title} (its own session)`;
    iframe.dataset.frame = frame.kind;
    const log = element("ol", { className: "log" });
    const column = element("section", { className: "trio-frame" }, element("h2", { textContent: frame.title }), status, iframe);
    column.setAttribute("aria-label", `${frame.title} frame`);
    const url = new URL(path, config.platformOrigin);
    url.searchParams.set("session", await newSession());
    url.searchParams.set("allowExport", "true");
    iframe.src = url.toString();
    const connection = connectSvcEmbed(iframe, { origin: config.platformOrigin });
    connections.push(connection);
    if (frame.filter) {
      const input = document.createElement("input");
      input.className = "mono";
      input.value = frame.filter;
      input.setAttribute("aria-label", `${frame.title} filter`);
      const apply = element("button", { textContent: "set-filter" });
      apply.addEventListener("click", async () => {
        const payload = { filterUrlParameter: input.value };
        logLine(log, "→ svc:action:set-filter", payload);
        const result = await connection
          .request({ type: "svc:action:set-filter", payload }, { timeoutMs: 5000 })
          .catch((err: unknown) => ({ error: String(err) }));
        logLine(log, "← svc:event:action-result", result);
      });
      column.append(element("div", { className: "row" }, input, apply));
    }
    column.append(log);
    container.append(column);
    for (const type of SVC_EVENT_TYPES) {
      if (type === "svc:event:action-result") continue;
      connection.on(type as never, (event: { type: string; payload: Record<string, unknown> }) => {
        logLine(log, `← ${event.type}`, event.payload, event.type.endsWith(":error"));
        if (event.type === "svc:event:ready")
          status.textContent = `${event.payload.surface} · ${event.payload.mode} · tenant ${event.payload.embedTenant ?? "none"}`;
      });
    }
  }
  return connections;
}
