/**
 * A dashboard of kind `APP`: the app's code in `<iframe sandbox="allow-scripts" srcdoc>` (see
 * app-document.ts), and the surface's end of the app channel. A message counts only when it
 * comes from this frame's own window and has exactly one of the channel's shapes; the app asks
 * for the dashboard's own reports only (by id, checked against the published snapshots), which
 * run as a widget's query does — the viewer's token, so row-level security, and the dashboard's
 * current filters. Filters, errors and drilldowns become the store's filters and the spec's
 * events; `dashboard-loaded` waits for the app's `loaded` (or the time-out).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import {
  APP_CHANNEL_SOURCE,
  APP_MESSAGE_TYPES,
  EVENT_TYPES,
  isAppMessage,
  SURFACE_MESSAGE_TYPES,
  type AppMessage,
  type SurfaceMessage,
} from "../../../protocol";
import type { DashboardConfig } from "../../../schema/dashboard";
import type { DashboardFilter, DashboardFilterOperator } from "../../../schema/dashboard-filters";
import { DASHBOARD_FILTER_OPERATORS, serializeFilterParameters } from "../../../schema/dashboard-filters";
import { useWidgetHost } from "../../grid/widget-host";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { composeWidgetQuery } from "../../widgets/query/compose-query";
import { reportQueryOf } from "../../widgets/chart/chart-widget";
import { buildAppDocument } from "./app-document";
import { dataOf, type EmbedApi } from "../../shell/api";
import type { PythonRunOutput } from "../../grid/widget-host";
import "./app-dashboard.css";

/** The widget id the load tracker waits for on an app dashboard. */
export const APP_WIDGET_ID = "app";
/** How long `dashboard-loaded` waits for the app's own `loaded`. */
export const APP_LOAD_TIMEOUT_MS = 10_000;
/** Rows sent to the app per report at most. */
const MAX_APP_ROWS = 50_000;

export function AppDashboard(props: { config: DashboardConfig; title: string }) {
  const host = useWidgetHost();
  const { bridge, store } = useEmbedServices();
  const frame = useRef<HTMLIFrameElement>(null);
  const scheme = useEmbedStore((s) => s.resolvedScheme);
  const theme = useEmbedStore((s) => s.theme);
  const locale = useEmbedStore((s) => s.locale);
  const filters = useEmbedStore((s) => s.filters);
  const refreshNonce = useEmbedStore((s) => s.refreshNonce);
  const platformOrigin = window.location.origin;
  const doc = useMemo(() => buildAppDocument(props.config, platformOrigin), [props.config, platformOrigin]);
  // Set once the frame has loaded the app; a second load means it navigated away: the channel closes.
  const channel = useRef<{ open: boolean; loads: number }>({ open: false, loads: 0 });
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

  // The opaque-origin frame can only be addressed with "*"; what goes there is checked to be
  // this frame's window, still on the document the surface gave it.
  const send = (message: SurfaceMessage) => {
    const win = frame.current?.contentWindow;
    if (win && channel.current.open) win.postMessage(message, "*");
  };

  useEffect(() => {
    send(context);
  }, [context, refreshNonce]);

  useEffect(() => {
    if (doc.problem) {
      bridge.emitError({ name: "AppInvalid", message: doc.problem, context: "app", fatal: false });
      host.settle(APP_WIDGET_ID, "error");
      return;
    }
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

    const runReport = async (requestId: string, reportId: number) => {
      const snapshot = host.reportsById.get(reportId);
      const base = reportQueryOf(snapshot);
      if (!snapshot || !base) {
        send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: `No report ${reportId} on this dashboard` });
        return;
      }
      const state = store.getState();
      const timezone = state.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      const query = composeWidgetQuery(base, { filters: state.filters, timeGrains: state.timeGrains, timezone, memberSwitches: state.memberSwitches });
      const controller = new AbortController();
      controllers.add(controller);
      try {
        const result = await host.runQuery(
          {
            query,
            ...(snapshot.fillMissingRows ? { fillMissingRows: snapshot.fillMissingRows } : {}),
            ...(snapshot.periodComparisons?.length ? { periodComparisons: snapshot.periodComparisons } : {}),
            ...(state.refreshNonce > 0 ? { cache: "bypass" as const } : {}),
          },
          controller.signal,
        );
        const rows = result.data.slice(0, MAX_APP_ROWS);
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
      const controller = new AbortController();
      controllers.add(controller);
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
          bridge.emitError({ name: m.name ?? "AppError", message: m.message, context: "app", fatal: false });
          return;
        case APP_MESSAGE_TYPES.size:
          setHeight(Math.min(Math.max(Math.round(m.height), 240), 20_000));
          return;
        case APP_MESSAGE_TYPES.drilldown:
          bridge.emit(EVENT_TYPES.drilldown, { member: m.member, ...(m.value !== undefined ? { value: m.value } : {}), widgetId: APP_WIDGET_ID });
          return;
      }
    };

    const onMessage = (event: MessageEvent) => {
      // Only the app frame's own window, only while it shows the document it was given.
      if (!frame.current || event.source !== frame.current.contentWindow || !channel.current.open) return;
      if (!isAppMessage(event.data)) return;
      handle(event.data);
    };
    window.addEventListener("message", onMessage);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("message", onMessage);
      for (const c of controllers) c.abort();
    };
    // A new app document is a new app.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc]);

  const onLoad = () => {
    channel.current.loads += 1;
    if (channel.current.loads === 1) {
      channel.current.open = true;
      send(contextRef.current);
      return;
    }
    // The app navigated its frame elsewhere: nothing more goes to it.
    channel.current.open = false;
    bridge.emitError({ name: "AppNavigated", message: "The app left its document; its channel is closed", context: "app", fatal: false });
  };

  if (doc.problem) {
    return (
      <div className="svc-app-dashboard is-invalid" data-testid="app-dashboard" role="alert">
        {doc.problem}
      </div>
    );
  }
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
