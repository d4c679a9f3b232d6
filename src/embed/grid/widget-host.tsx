/**
 * What widgets need from the surface that hosts them (the dashboard): the data access,
 * the report snapshots, export permission, and where to report render status, drilldowns
 * and downloads. Widgets never talk to the bridge or the API client directly.
 */
import { createContext, useContext } from "react";
import type { DownloadFormat, DownloadPayload, DownloadTarget, DrilldownPayload, ErrorPayload } from "../../protocol";
import type { ReportSnapshot } from "../../schema/dashboard";
import type { DashboardFilter } from "../../schema/dashboard-filters";
import type { QueryRequest, QueryResult, SemanticQuery } from "../shell/platform-api";
import type { WidgetClick } from "../widgets/chart/widget-click";
import type { PrintableRegistry } from "./printables";

export interface DrilldownRequest {
  widgetId: string;
  title: string;
  member: string;
  value: unknown;
  /** The query whose slice is opened. */
  detailQuery: SemanticQuery;
}

/** What a Python report returned (`python-run`). */
export interface PythonRunOutput {
  stdout: string;
  table?: Record<string, unknown>[];
  html?: string;
  image?: string;
}

export interface WidgetHost {
  deploymentId: number;
  reportsById: ReadonlyMap<number, ReportSnapshot>;
  /** Export controls are on (`allowExport=true`). */
  allowExport: boolean;
  /**
   * The formats the controls offer (the session's grant within the URL's `allowExport=true`);
   * absent: every format. The server refuses the others whatever the controls show.
   */
  exportFormats?: readonly DownloadFormat[];
  /** Asks the platform before a picture (PNG, PDF) is drawn; throws when the format is refused. Absent: nothing to ask. */
  authorizeExport?(format: DownloadFormat, target: DownloadTarget): Promise<void>;
  runQuery(request: QueryRequest, signal?: AbortSignal): Promise<QueryResult>;
  distinctValues(member: string, search: string, signal?: AbortSignal): Promise<unknown[]>;
  /** The text shown for a dimension value in the viewer's locale (a translation, a country's name), once known; absent: the raw value. */
  valueLabel?(member: string, value: unknown): string | undefined;
  /** A visible widget rendered or failed (drives dashboard-loaded). */
  settle(widgetId: string, status: "ready" | "error"): void;
  reportError(error: ErrorPayload): void;
  drilldown(request: DrilldownRequest, event: DrilldownPayload): void;
  /** A further step of a drill-through already open (another dimension, over time, a value's rows): reported to the host. */
  drilled?(event: DrilldownPayload): void;
  /** Members the dashboard has a filter control for: a drill may set those filters (and the viewer clear them there). */
  filterMembers?: ReadonlySet<string>;
  /** Sets these dashboard filters at once (one `filters-changed`), keeping the others. */
  filterTo?(filters: readonly DashboardFilter[]): void;
  /** A click on a widget whose `config.click` is a link or a host event; absent, such clicks drill as any other. */
  clicked?(click: WidgetClick): void;
  downloaded(event: DownloadPayload): void;
  /** Where widgets offer their content to the dashboard PDF (printables.ts); absent: no dashboard PDF. */
  printables?: PrintableRegistry;
  /** Runs a Python report of the dashboard on the platform, with these filter parameters. */
  runPython?(reportId: number, filters: string[], signal?: AbortSignal): Promise<PythonRunOutput>;
}

export const WidgetHostContext = createContext<WidgetHost | null>(null);

/** Whether the host's export controls offer `format`. */
export function offersExport(host: WidgetHost, format: DownloadFormat): boolean {
  return host.allowExport && (host.exportFormats?.includes(format) ?? true);
}

export function useWidgetHost(): WidgetHost {
  const host = useContext(WidgetHostContext);
  if (!host) throw new Error("widgets need a WidgetHostContext above them");
  return host;
}
