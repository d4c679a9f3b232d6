/**
 * What every example page needs before it can show the element: the demo host's backend mints a
 * signed session for the tenant (its admin key never reaches the browser) and says where the
 * platform and the demo dashboard are. A real host does the same with its own backend.
 */
export interface ExampleEmbed {
  /** The dashboard surface's URL with its URL parameters, without the session. */
  src: string;
  /** The platform's origin, the only one the element trusts. */
  origin: string;
  /** A fresh one-time session id. */
  session: string;
}

export async function newDemoSession(): Promise<string> {
  const response = await fetch("/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant: "acme-corp" }) });
  const body = (await response.json()) as { sessionId?: string; message?: string };
  if (!response.ok || !body.sessionId) throw new Error(body.message ?? `session: ${response.status}`);
  return body.sessionId;
}

export async function demoEmbed(): Promise<ExampleEmbed> {
  const config = (await (await fetch("/config.json")).json()) as { platformOrigin: string; dashboardPublicId: string };
  return {
    // `allowExport=true`: the export controls (the frame's sandbox lets their downloads through).
    src: `${config.platformOrigin}/embed/dashboard/${config.dashboardPublicId}?allowExport=true`,
    origin: config.platformOrigin,
    session: await newDemoSession(),
  };
}

/** The filter the examples set: only completed orders (the demo dashboard has a control for it). */
export const COMPLETED_ORDERS = 'f_sales.status={"value":["completed"]}';

/** One line of an example page's event log: `svc-ready {"mode":"signed",…}`. */
export function logLine(event: Event): string {
  const detail = event instanceof CustomEvent && typeof event.detail === "object" && event.detail ? (event.detail as { payload?: unknown }).payload : undefined;
  return `${event.type} ${JSON.stringify(detail ?? {})}`;
}

/** The events the plain pages write to their log, one line each. */
const LOGGED_EVENTS = [
  "svc-ready",
  "svc-view",
  "svc-dashboard-loaded",
  "svc-filters-changed",
  "svc-download",
  "svc-resize",
  "svc-action-result",
  "svc-error",
] as const;

/** Appends a line to `log` for each of the element's events the examples show. */
export function logEvents(embed: HTMLElement, log: HTMLElement): void {
  for (const name of LOGGED_EVENTS)
    embed.addEventListener(name, (event) => log.append(Object.assign(document.createElement("li"), { textContent: logLine(event) })));
}
