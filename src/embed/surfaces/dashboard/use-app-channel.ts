/**
 * The surface's end of an app frame's channel (see app-dashboard.tsx): takes the app's port once,
 * answers its report and Python asks with the dashboard's own reports under the current filters
 * (the reports its code names literally run ahead), and turns its filters, errors, sizes and
 * drilldowns into the store's filters and the spec's events — the app's own text marked
 * `source: "app"`, filters only on members the dashboard shows.
 */
import { useLayoutEffect, type MutableRefObject, type RefObject } from "react";
import { APP_MESSAGE_TYPES, EVENT_TYPES, isAppConnectMessage, isAppMessage, type AppMessage, type SurfaceMessage } from "../../../protocol";
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { DashboardFilter, DashboardFilterOperator } from "../../../schema/dashboard-filters";
import { DASHBOARD_FILTER_OPERATORS } from "../../../schema/dashboard-filters";
import { useWidgetHost } from "../../grid/widget-host";
import { useEmbedServices } from "../../shell/embed-context";
import { createAppAsks } from "./app-asks";
import type { AppDocument } from "./app-document";

/** The widget id the load tracker waits for on an app dashboard. */
export const APP_WIDGET_ID = "app";
/** How long `dashboard-loaded` waits for the app's own `loaded`. */
export const APP_LOAD_TIMEOUT_MS = 10_000;

/** The channel of one frame element: at most one port, ever. */
export interface AppChannel {
  port: MessagePort | null;
  /** A port was taken (it stays refused afterwards, even once closed). */
  connected: boolean;
  loads: number;
}

export function useAppChannel(opts: {
  doc: AppDocument;
  frame: RefObject<HTMLIFrameElement | null>;
  channel: MutableRefObject<AppChannel>;
  contextRef: MutableRefObject<SurfaceMessage>;
  filterMembers: (reports: Iterable<ReportSnapshot>) => Set<string>;
  setHeight: (height: number) => void;
}): void {
  const { doc, frame, channel, contextRef, setHeight } = opts;
  const host = useWidgetHost();
  const { bridge, store } = useEmbedServices();
  /** Over the port only: before the app has connected (or after the channel closed) nothing goes. */
  const send = (message: SurfaceMessage) => channel.current.port?.postMessage(message);

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
    const filterMembers = opts.filterMembers(host.reportsById.values());
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
    const asks = createAppAsks({ host, store, bridge, send, hasPort: () => state.port !== null });
    asks.startEarly(doc.startingReports);

    const handle = (m: AppMessage) => {
      switch (m.type) {
        case APP_MESSAGE_TYPES.loaded:
          window.clearTimeout(timer);
          host.settle(APP_WIDGET_ID, "ready");
          return;
        case APP_MESSAGE_TYPES.query:
          void asks.runReport(m.requestId, m.reportId);
          return;
        case APP_MESSAGE_TYPES.python:
          void asks.runPython(m.requestId, m.reportId);
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
      asks.sendAllAhead();
    };
    window.addEventListener("message", onConnect);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("message", onConnect);
      state.port?.close();
      state.port = null;
      asks.cancelAll();
    };
    // One frame element, one document: set up once (AppFrame is keyed by its document).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
