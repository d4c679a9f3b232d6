/**
 * A dashboard of kind `APP`: the app's code in `<iframe sandbox="allow-scripts" srcdoc>` (see
 * app-document.ts), and the surface's end of the app channel. The channel is a `MessagePort`
 * the app's runtime hands over once (`app:connect`, posted to this window at its exact origin):
 * it is taken only from this frame's own window, with exactly that shape and one port, and only
 * once per frame — a second document in the frame gets no channel. Every other message goes over
 * the port and must have exactly one of the channel's shapes; nothing else the frame posts to this
 * window is read. The app asks for the dashboard's own reports only (by id, checked against the
 * published snapshots), which run as a widget's query does — the viewer's token, so row-level
 * security, and the dashboard's current filters. The reports its code names literally run while
 * the frame is still loading. Filters, errors and drilldowns become the store's filters and the
 * spec's events; `dashboard-loaded` waits for the app's `loaded` (or the time-out).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { APP_CHANNEL_SOURCE, SURFACE_MESSAGE_TYPES, type SurfaceMessage } from "../../../protocol";
import type { DashboardConfig, ReportSnapshot } from "../../../schema/dashboard";
import { useWidgetHost } from "../../grid/widget-host";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { reportQueryOf } from "../../widgets/chart/chart-widget";
import { buildAppDocument, type AppDocument } from "./app-document";
import { dataOf, type EmbedApi } from "../../shell/api";
import type { PythonRunOutput } from "../../grid/widget-host";
import { APP_WIDGET_ID, useAppChannel, type AppChannel } from "./use-app-channel";
import "./app-dashboard.css";

export { APP_LOAD_TIMEOUT_MS, APP_WIDGET_ID } from "./use-app-channel";

export function AppDashboard(props: { config: DashboardConfig; title: string; publicId: string }) {
  const platformOrigin = window.location.origin;
  const [doc, setDoc] = useState<AppDocument | null>(null);
  useEffect(() => {
    let current = true;
    // The scripts' URLs name their code's SHA-256 (a digest of the browser's: asynchronous).
    void buildAppDocument(props.config, platformOrigin, props.publicId).then((built) => {
      if (current) setDoc(built);
    });
    return () => {
      current = false;
    };
  }, [props.config, platformOrigin, props.publicId]);
  if (!doc) return <div className="svc-app-dashboard" data-testid="app-dashboard" />;
  if (doc.problem) return <InvalidApp doc={doc} />;
  // A new document is a new frame element, so nothing of the old one can reach the new channel.
  return <AppFrame key={doc.html} doc={doc} title={props.title} filterMembers={appFilterMembers(props.config)} />;
}

/**
 * The members an app may set a dashboard filter on: those of the dashboard's filter controls, and
 * the dimensions (time dimensions, filter members) its reports query. Any other is refused.
 */
export function appFilterMembers(config: DashboardConfig): (reports: Iterable<ReportSnapshot>) => Set<string> {
  return (reports) => {
    const members = new Set<string>();
    for (const widget of config.widgets ?? []) {
      const member = widget.type === "FILTER" ? (widget.config as { member?: unknown } | null | undefined)?.member : undefined;
      if (typeof member === "string") members.add(member);
    }
    for (const snapshot of reports) {
      const query = reportQueryOf(snapshot);
      if (!query) continue;
      for (const d of query.dimensions ?? []) members.add(d);
      for (const t of query.timeDimensions ?? []) members.add(t.dimension);
      for (const f of query.filters ?? []) if ("member" in f && typeof f.member === "string") members.add(f.member);
    }
    return members;
  };
}

function InvalidApp(props: { doc: AppDocument }) {
  const host = useWidgetHost();
  const { bridge } = useEmbedServices();
  const problem = props.doc.problem ?? "";
  useEffect(() => {
    bridge.emitError({ name: "AppInvalid", message: problem, context: "app", fatal: false });
    host.settle(APP_WIDGET_ID, "error");
  }, [bridge, host, problem]);
  return (
    <div className="svc-app-dashboard is-invalid" data-testid="app-dashboard" role="alert">
      {problem}
    </div>
  );
}

function AppFrame(props: { doc: AppDocument; title: string; filterMembers: (reports: Iterable<ReportSnapshot>) => Set<string> }) {
  const { doc } = props;
  const host = useWidgetHost();
  const { bridge } = useEmbedServices();
  const frame = useRef<HTMLIFrameElement>(null);
  const scheme = useEmbedStore((s) => s.resolvedScheme);
  const theme = useEmbedStore((s) => s.theme);
  const locale = useEmbedStore((s) => s.locale);
  const filters = useEmbedStore((s) => s.filters);
  const refreshNonce = useEmbedStore((s) => s.refreshNonce);
  const channel = useRef<AppChannel>({ port: null, connected: false, loads: 0 });
  // The app's own content height (app:size); until it says, the frame fills the view.
  const [height, setHeight] = useState<number | null>(null);

  const context = useMemo<SurfaceMessage>(
    () => ({
      source: APP_CHANNEL_SOURCE,
      type: SURFACE_MESSAGE_TYPES.context,
      scheme,
      theme: { ...theme },
      locale,
      filters: Object.fromEntries(
        Object.entries(filters).map(([m, f]) => [m, f.value === undefined ? { operator: f.operator } : { operator: f.operator, value: f.value }]),
      ),
      reports: [...host.reportsById.values()].map((s) => ({ reportId: s.reportId, name: s.name ?? null, title: s.title ?? null, kind: s.kind ?? null })),
    }),
    [scheme, theme, locale, filters, host.reportsById],
  );
  const contextRef = useRef(context);
  contextRef.current = context;

  /** Over the port only: before the app has connected (or after the channel closed) nothing goes. */
  const send = (message: SurfaceMessage) => channel.current.port?.postMessage(message);

  useEffect(() => {
    send(context);
  }, [context, refreshNonce]);

  useAppChannel({ doc, frame, channel, contextRef, filterMembers: props.filterMembers, setHeight });

  const onLoad = () => {
    const state = channel.current;
    state.loads += 1;
    if (state.loads === 1) return;
    // The app navigated its frame elsewhere: nothing more goes to it or comes from it.
    state.port?.close();
    state.port = null;
    bridge.emitError({ name: "AppNavigated", message: "The app left its document; its channel is closed", context: "app", fatal: false });
  };

  return (
    <div className="svc-app-dashboard" data-testid="app-dashboard">
      <iframe
        ref={frame}
        className="svc-app-frame"
        data-testid="app-frame"
        title={props.title}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        allow="camera 'none'; microphone 'none'; geolocation 'none'; payment 'none'; usb 'none'; clipboard-read 'none'; clipboard-write 'none'"
        srcDoc={doc.html}
        style={height === null ? undefined : { height }}
        onLoad={onLoad}
      />
    </div>
  );
}

/** `python-run` of one report of this dashboard, with the dashboard's filter parameters. */
export function runPythonReport(api: EmbedApi, publicId: string, reportId: number, filters: string[], signal?: AbortSignal): Promise<PythonRunOutput> {
  return dataOf(
    api.client.POST("/api/v1/embed/dashboard/{publicId}/python-run", {
      params: { path: { publicId } },
      body: { reportId, filters },
      signal,
    }),
  );
}
