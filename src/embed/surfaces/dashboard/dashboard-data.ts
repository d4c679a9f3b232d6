/**
 * The dashboard surface's data, loaded from boot rather than from the React tree: the
 * dashboard's definition as soon as the session allows, the store set up for it (filter
 * controls, session settings), then the first queries of every widget shown at load, in one
 * batch request whose answers stream back as each finishes. The widgets, once mounted, take
 * these answers instead of asking again (src/embed/shell/dashboard-data-types.ts).
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { ApiError, apiError, dataOf } from "../../shell/api";
import { dashboardPublicIdOf } from "../../shell/auth-controller";
import type { DashboardData } from "../../shell/dashboard-data-types";
import type { EmbedServices } from "../../shell/embed-context";
import type { EmbedDashboardResponse, QueryRequest, QueryResult } from "../../shell/platform-api";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";
import { chartQueryRequest, composeChartQuery, hasPythonCode, reportQueryOf } from "../../widgets/chart/widget-request";
import { filterWiringOf } from "../../widgets/query/filter-wiring";
import { applyDashboardSetupOnce } from "../../grid/dashboard-setup";
import { viewerTimeZone } from "../../i18n/viewer-time-zone";
import { loadLocaleMatching } from "../../i18n/locales";
import { warmChartWorker } from "../../widgets/chart/chart-worker-client";

/** Widgets shown at load: top-level widgets and those of each tab container's first tab. */
export function widgetsShownAtLoad(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  return widgets.flatMap((widget) => (widget.type === "TABS_CONTAINER" ? widgetsShownAtLoad(tabsOf(widget)[0]?.widgets ?? []) : [widget]));
}

/** True when a widget shown at load draws a chart (vega or map): its renderer can start before the data is in. */
export function drawsCharts(data: EmbedDashboardResponse): boolean {
  if (data.dashboard.config.kind === "APP") return false;
  const chartReports = new Set(data.dashboard.reportSnapshots.filter((s) => s.kind === "vega" || s.kind === "map").map((s) => s.reportId));
  return widgetsShownAtLoad(data.dashboard.config.widgets ?? []).some(
    (w) => w.type === "CHART" && chartReports.has((w.config as { reportId?: unknown } | null)?.reportId as number),
  );
}

/**
 * The query requests of the CHART widgets shown at load, for the store's current state (each
 * once); `counts` receives how many widgets send each (by its JSON).
 */
export function firstWidgetRequests(
  data: EmbedDashboardResponse,
  state: Parameters<typeof composeChartQuery>[1] & { refreshNonce: number; locale?: string },
  counts: Map<string, number> = new Map(),
): QueryRequest[] {
  if (data.dashboard.config.kind === "APP") return [];
  const reports = new Map(data.dashboard.reportSnapshots.map((s) => [s.reportId, s]));
  const requests = new Map<string, QueryRequest>();
  const filterWiring = filterWiringOf(data.dashboard.config.widgets ?? []);
  for (const widget of widgetsShownAtLoad(data.dashboard.config.widgets ?? [])) {
    if (widget.type !== "CHART") continue;
    const reportId = (widget.config as { reportId?: unknown } | null)?.reportId;
    const snapshot = typeof reportId === "number" ? reports.get(reportId) : undefined;
    const base = reportQueryOf(snapshot);
    if (!snapshot || !base || hasPythonCode(snapshot.meta)) continue;
    const request = chartQueryRequest(snapshot, composeChartQuery(base, { ...state, filterWiring, widgetId: widget.id }), state.refreshNonce, state.locale);
    const key = JSON.stringify(request);
    requests.set(key, request);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...requests.values()];
}

interface BatchLine {
  index: number;
  status: number;
  body: unknown;
}

/**
 * Sends the requests as one batch and calls `settle(index, result | error)` for each answer as
 * its line arrives. Resolves when the answer has ended; every request without a line by then
 * (the batch failed, or was cut off) is settled with null.
 */
async function sendBatch(
  services: EmbedServices,
  deploymentId: number,
  requests: QueryRequest[],
  settle: (index: number, outcome: QueryResult | ApiError | null) => void,
): Promise<void> {
  const settled = new Set<number>();
  const done = (index: number, outcome: QueryResult | ApiError | null) => {
    if (settled.has(index) || index < 0 || index >= requests.length) return;
    settled.add(index);
    settle(index, outcome);
  };
  try {
    // Through the typed client: the token, or in private mode the login's CSRF token, as for any write.
    const { response } = await services.api.client.POST("/api/v1/deployments/{deploymentId}/query/batch", {
      params: { path: { deploymentId } },
      // The embed's query type is the stricter form of the API's (typed filters and order).
      body: { queries: requests } as never,
      parseAs: "stream",
    });
    if (!response.ok || !response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffered += value;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as BatchLine;
        buffered = buffered.slice(newline + 1);
        done(line.index, line.status === 200 ? (line.body as QueryResult) : new ApiError(line.status, line.body));
      }
    }
  } catch {
    // A broken batch is no error of any widget's: each asks for itself.
  } finally {
    for (let i = 0; i < requests.length; i++) done(i, null);
  }
}

/** Starts loading; `settled` is called once the dashboard is set up, or has failed to load. */
export function loadDashboardData(services: EmbedServices, settled: () => void): DashboardData {
  const { api, auth, store, urlParameters } = services;
  const publicId = dashboardPublicIdOf(window.location.pathname);
  const localeAtStart = store.getState().locale;
  // Each first answer with the number of widgets shown at load that send the same request.
  const pending = new Map<string, { answer: Promise<QueryResult | null>; takers: number }>();

  const definition = (async (): Promise<EmbedDashboardResponse> => {
    await auth.first;
    if (!publicId) throw apiError(404, "not_found", "Unknown dashboard");
    // Titles and labels come in the viewer's locale: one chosen at run time or in the URL; else the session's (the platform knows it).
    const chosen = store.getState().locale !== localeAtStart ? store.getState().locale : urlParameters.locale;
    const response = dataOf(api.client.GET("/api/v1/embed/dashboard/{publicId}", { params: { path: { publicId }, query: chosen ? { locale: chosen } : {} } }));
    // The viewer's time zone, which the widgets' first queries carry, is costly to read the first
    // time: read while the definition is on its way.
    viewerTimeZone();
    return (await response) as EmbedDashboardResponse;
  })();

  const setUp = definition.then(
    async (data) => {
      // A `set-locale` that came before the dashboard outranks the session's locale.
      applyDashboardSetupOnce(store, data, urlParameters, { localeChosen: store.getState().locale !== localeAtStart });
      settled();
      // The chart worker (its code evaluates off the page's thread) only for a dashboard that
      // draws charts: on two cores it would slow the rest.
      if (drawsCharts(data)) warmChartWorker();
      // The first queries carry the viewer's locale (their answers are translated): when the URL or
      // the session names one, the matcher applies it first (its callbacks run before this one).
      if (urlParameters.locale || data.viewer.settings?.locale) await loadLocaleMatching();
      const takers = new Map<string, number>();
      const requests = firstWidgetRequests(data, store.getState(), takers);
      if (requests.length === 0) return data;
      const outcomes = requests.map((request) => {
        let resolve!: (outcome: QueryResult | ApiError | null) => void;
        const promise = new Promise<QueryResult | ApiError | null>((r) => (resolve = r));
        const key = JSON.stringify(request);
        const answer = promise.then((outcome) => {
          if (outcome instanceof ApiError) {
            // A retry asks the platform again.
            pending.delete(key);
            throw outcome;
          }
          return outcome;
        });
        pending.set(key, { answer, takers: takers.get(key) ?? 1 });
        return { promise, resolve };
      });
      void sendBatch(services, data.dashboard.deploymentId, requests, (index, outcome) => outcomes[index]!.resolve(outcome));
      return data;
    },
    (error: unknown) => {
      settled();
      throw error;
    },
  );
  // A failed load is the surface's to show (it reads `definition`); nothing else waits on it.
  setUp.catch(() => undefined);

  return {
    publicId: publicId ?? "",
    definition: setUp,
    takeResult(request) {
      const key = JSON.stringify(request);
      const entry = pending.get(key);
      if (!entry) return null;
      // Every widget that sends it at load gets the answer; after them, the request goes to the platform.
      if (--entry.takers <= 0) pending.delete(key);
      return entry.answer;
    },
  };
}
