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
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  APP_CHANNEL_SOURCE,
  APP_MESSAGE_TYPES,
  EVENT_TYPES,
  isAppConnectMessage,
  isAppMessage,
  SURFACE_MESSAGE_TYPES,
  type AppMessage,
  type SurfaceMessage,
} from "../../../protocol";
import type { DashboardConfig, ReportSnapshot } from "../../../schema/dashboard";
import type { DashboardFilter, DashboardFilterOperator } from "../../../schema/dashboard-filters";
import { DASHBOARD_FILTER_OPERATORS, serializeFilterParameters } from "../../../schema/dashboard-filters";
import { useWidgetHost } from "../../grid/widget-host";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { composeWidgetQuery } from "../../widgets/query/compose-query";
import { reportQueryOf } from "../../widgets/chart/chart-widget";
import { buildAppDocument, type AppDocument } from "./app-document";
import { dataOf, type EmbedApi } from "../../shell/api";
import type { QueryRequest } from "../../shell/platform-api";
import type { PythonRunOutput } from "../../grid/widget-host";
import "./app-dashboard.css";

/** The widget id the load tracker waits for on an app dashboard. */
export const APP_WIDGET_ID = "app";
/** How long `dashboard-loaded` waits for the app's own `loaded`. */
export const APP_LOAD_TIMEOUT_MS = 10_000;
/** Rows sent to the app per report at most. */
const MAX_APP_ROWS = 50_000;

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

/** The channel of one frame element: at most one port, ever. */
interface AppChannel {
  port: MessagePort | null;
  /** A port was taken (it stays refused afterwards, even once closed). */
  connected: boolean;
  loads: number;
}

function AppFrame(props: { doc: AppDocument; title: string; filterMembers: (reports: Iterable<ReportSnapshot>) => Set<string> }) {
  const { doc } = props;
  const host = useWidgetHost();
  const { bridge, store } = useEmbedServices();
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

  // A layout effect: the listener for `app:connect` is in place in the same task that puts the
  // frame into the page, before the frame's document can run.
  useLayoutEffect(() => {
    const state = channel.current;
    if (doc.refusedScripts.length) {
      bridge.emitError({
        name: "AppScriptRefused",
        message: `Scripts from outside the app are not loaded: ${doc.refusedScripts.join(", ").slice(0, 500)}`,
        context: "app",
        fatal: false,
      });
    }
    const filterMembers = props.filterMembers(host.reportsById.values());
    if (doc.unknownDependencies.length) {
      bridge.emitError({
        name: "AppDependencyRefused",
        message: `Not served by the platform: ${doc.unknownDependencies.join(", ").slice(0, 500)}`,
        context: "app",
        fatal: false,
      });
    }
    const timer = window.setTimeout(() => {
      bridge.emitError({ name: "AppLoadTimeout", message: `The app did not report loaded within ${APP_LOAD_TIMEOUT_MS} ms`, context: "app", fatal: false });
      host.settle(APP_WIDGET_ID, "error");
    }, APP_LOAD_TIMEOUT_MS);
    const controllers = new Set<AbortController>();
    const track = () => {
      const controller = new AbortController();
      controllers.add(controller);
      return controller;
    };

    /** The query a widget of this report would run now, or null when the report is not on this dashboard. */
    const requestFor = (reportId: number): QueryRequest | null => {
      const snapshot = host.reportsById.get(reportId);
      const base = reportQueryOf(snapshot);
      if (!snapshot || !base) return null;
      const state = store.getState();
      const timezone = state.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      return {
        query: composeWidgetQuery(base, { filters: state.filters, timeGrains: state.timeGrains, timezone, memberSwitches: state.memberSwitches }),
        ...(snapshot.fillMissingRows ? { fillMissingRows: snapshot.fillMissingRows } : {}),
        ...(snapshot.periodComparisons?.length ? { periodComparisons: snapshot.periodComparisons } : {}),
        ...(state.refreshNonce > 0 ? { cache: "bypass" as const } : {}),
      };
    };
    const rowsOf = async (request: QueryRequest, signal: AbortSignal) => (await host.runQuery(request, signal)).data.slice(0, MAX_APP_ROWS);

    // The reports the app's code names literally run now, alongside the frame's loading. Their
    // rows go to the app as soon as both they and the port are there (`surface:preloaded`, only
    // while the query is still the one the app would run); an ask that comes first, or after a
    // change of context, takes the same run if its query is still the same one.
    const early = new Map<number, { key: string; rows: Promise<Record<string, unknown>[]>; done: Record<string, unknown>[] | null }>();
    const sendAhead = (reportId: number) => {
      const entry = early.get(reportId);
      const request = requestFor(reportId);
      if (!state.port || !entry?.done || !request || JSON.stringify(request) !== entry.key) return;
      send({
        source: APP_CHANNEL_SOURCE,
        type: SURFACE_MESSAGE_TYPES.preloaded,
        reportId,
        rows: entry.done,
        columns: entry.done[0] ? Object.keys(entry.done[0]) : [],
      });
    };
    for (const ref of doc.startingReports) {
      const reportId = typeof ref === "number" ? ref : [...host.reportsById.values()].find((s) => s.name === ref)?.reportId;
      const request = reportId === undefined ? null : requestFor(reportId);
      if (reportId === undefined || !request || early.has(reportId)) continue;
      const entry = { key: JSON.stringify(request), rows: rowsOf(request, track().signal), done: null as Record<string, unknown>[] | null };
      early.set(reportId, entry);
      entry.rows.then(
        (rows) => {
          entry.done = rows;
          sendAhead(reportId);
        },
        () => undefined,
      );
    }

    const runReport = async (requestId: string, reportId: number) => {
      const request = requestFor(reportId);
      if (!request) {
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: `No report ${reportId} on this dashboard` });
        return;
      }
      const started = early.get(reportId);
      early.delete(reportId);
      const controller = track();
      try {
        const rows = started && started.key === JSON.stringify(request) ? await started.rows : await rowsOf(request, controller.signal);
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: true, rows, columns: rows[0] ? Object.keys(rows[0]) : [] });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: message });
        bridge.emitError({ name: "QueryFailed", message, context: "app", fatal: false });
      } finally {
        controllers.delete(controller);
      }
    };

    const runPython = async (requestId: string, reportId: number) => {
      if (!host.reportsById.has(reportId) || !host.runPython) {
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: `No report ${reportId} on this dashboard` });
        return;
      }
      const controller = track();
      try {
        const python = await host.runPython(reportId, serializeFilterParameters(store.getState().filters), controller.signal);
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: true, rows: [], columns: [], python });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: message });
        bridge.emitError({ name: "QueryFailed", message, context: "app", fatal: false });
      } finally {
        controllers.delete(controller);
      }
    };

    const handle = (m: AppMessage) => {
      switch (m.type) {
        case APP_MESSAGE_TYPES.loaded:
          window.clearTimeout(timer);
          host.settle(APP_WIDGET_ID, "ready");
          return;
        case APP_MESSAGE_TYPES.query:
          void runReport(m.requestId, m.reportId);
          return;
        case APP_MESSAGE_TYPES.python:
          void runPython(m.requestId, m.reportId);
          return;
        case APP_MESSAGE_TYPES.setFilter: {
          if (!filterMembers.has(m.member)) {
            bridge.emitError({
              name: "AppFilterRefused",
              message: "The app set a filter on a member this dashboard does not show",
              context: "app",
              fatal: false,
            });
            return;
          }
          if (m.filter !== null && !(DASHBOARD_FILTER_OPERATORS as readonly string[]).includes(m.filter.operator)) return;
          const filter: DashboardFilter | null = m.filter && {
            member: m.member,
            operator: m.filter.operator as DashboardFilterOperator,
            ...(m.filter.value !== undefined ? { value: m.filter.value } : {}),
          };
          store.getState().setFilter(m.member, filter);
          return;
        }
        case APP_MESSAGE_TYPES.error:
          // The app's own text: marked as the app's, so a host can tell it from the platform's events.
          bridge.emitError({ name: m.name ?? "AppError", message: m.message, context: "app", fatal: false, source: "app" });
          return;
        case APP_MESSAGE_TYPES.size:
          setHeight(Math.min(Math.max(Math.round(m.height), 240), 20_000));
          return;
        case APP_MESSAGE_TYPES.drilldown:
          bridge.emit(EVENT_TYPES.drilldown, {
            member: m.member,
            ...(m.value !== undefined ? { value: m.value } : {}),
            widgetId: APP_WIDGET_ID,
            source: "app",
          });
          return;
      }
    };

    // The one message read from this window: the app's port, from this frame's own window (an
    // opaque origin), exactly `app:connect` with one port, once. A refused port is closed.
    const onConnect = (event: MessageEvent) => {
      const win = frame.current?.contentWindow;
      if (!win || event.source !== win) return;
      const port = event.ports.length === 1 ? event.ports[0]! : null;
      if (!port || event.origin !== "null" || !isAppConnectMessage(event.data) || state.connected || state.loads > 1) {
        for (const p of event.ports) p.close();
        return;
      }
      state.connected = true;
      state.port = port;
      port.onmessage = (message: MessageEvent) => {
        if (state.port === port && isAppMessage(message.data)) handle(message.data);
      };
      port.postMessage(contextRef.current);
      for (const reportId of early.keys()) sendAhead(reportId);
    };
    window.addEventListener("message", onConnect);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("message", onConnect);
      state.port?.close();
      state.port = null;
      for (const c of controllers) c.abort();
    };
    // One frame element, one document: set up once (AppFrame is keyed by its document).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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
