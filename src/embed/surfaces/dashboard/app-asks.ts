/**
 * What an app frame asks of its dashboard (use-app-channel.ts): a report's rows under the
 * dashboard's filters now, or its Python run. The reports the app's code names literally start
 * ahead, beside the frame's loading; every run is cancelled with the channel.
 */
import { APP_CHANNEL_SOURCE, SURFACE_MESSAGE_TYPES, type SurfaceMessage } from "../../../protocol";
import { serializeFilterParameters } from "../../../schema/dashboard-filters";
import type { PythonRunOutput, WidgetHost } from "../../grid/widget-host";
import type { EmbedServices } from "../../shell/embed-context";
import type { QueryRequest } from "../../shell/platform-api";
import { composeWidgetQuery } from "../../widgets/query/compose-query";
import { reportQueryOf } from "../../widgets/chart/chart-widget";
import type { AppDocument } from "./app-document";

/** Rows sent to the app per report at most. */
const MAX_APP_ROWS = 50_000;

export interface AppAsksDeps {
  host: Pick<WidgetHost, "reportsById" | "runQuery" | "runPython">;
  store: EmbedServices["store"];
  bridge: Pick<EmbedServices["bridge"], "emitError">;
  /** Sends over the app's port (nothing before it has connected). */
  send: (message: SurfaceMessage) => void;
  hasPort: () => boolean;
}

export function createAppAsks({ host, store, bridge, send, hasPort }: AppAsksDeps) {
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
    if (!hasPort() || !entry?.done || !request || JSON.stringify(request) !== entry.key) return;
    send({
      source: APP_CHANNEL_SOURCE,
      type: SURFACE_MESSAGE_TYPES.preloaded,
      reportId,
      rows: entry.done,
      columns: entry.done[0] ? Object.keys(entry.done[0]) : [],
    });
  };
  const startEarly = (startingReports: AppDocument["startingReports"]) => {
    for (const ref of startingReports) {
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
  };

  /** Answers one ask of the app: its result, or its failure (also reported to the host); nothing once cancelled. */
  const answer = async (requestId: string, work: (signal: AbortSignal) => Promise<{ rows: Record<string, unknown>[]; python?: PythonRunOutput }>) => {
    const controller = track();
    try {
      const { rows, python } = await work(controller.signal);
      send({
        source: APP_CHANNEL_SOURCE,
        type: SURFACE_MESSAGE_TYPES.result,
        requestId,
        ok: true,
        rows,
        columns: rows[0] ? Object.keys(rows[0]) : [],
        ...(python ? { python } : {}),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: message });
      bridge.emitError({ name: "QueryFailed", message, context: "app", fatal: false });
    } finally {
      controllers.delete(controller);
    }
  };
  const notHere = (requestId: string, reportId: number) =>
    send({ source: APP_CHANNEL_SOURCE, type: SURFACE_MESSAGE_TYPES.result, requestId, ok: false, error: `No report ${reportId} on this dashboard` });

  const runReport = (requestId: string, reportId: number) => {
    const request = requestFor(reportId);
    if (!request) return notHere(requestId, reportId);
    const started = early.get(reportId);
    early.delete(reportId);
    return answer(requestId, async (signal) => ({
      rows: started && started.key === JSON.stringify(request) ? await started.rows : await rowsOf(request, signal),
    }));
  };

  const runPython = (requestId: string, reportId: number) => {
    const run = host.runPython;
    if (!host.reportsById.has(reportId) || !run) return notHere(requestId, reportId);
    return answer(requestId, async (signal) => ({ rows: [], python: await run(reportId, serializeFilterParameters(store.getState().filters), signal) }));
  };

  return {
    startEarly,
    runReport,
    runPython,
    /** Once the port is there: every early run that has ended goes to the app. */
    sendAllAhead: () => {
      for (const reportId of early.keys()) sendAhead(reportId);
    },
    cancelAll: () => {
      for (const c of controllers) c.abort();
    },
  };
}
