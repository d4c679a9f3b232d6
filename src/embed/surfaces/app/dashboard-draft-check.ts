/**
 * Whether the server would take a dashboard draft: the DashboardConfig schema it validates with,
 * and every chart's report one the editor knows (a report of the workbook, or one a draft the
 * server already took showed) and not one it saw deleted. Autosave sends nothing it would
 * refuse, an undone step included.
 */
import { DashboardConfig, type DashboardWidget } from "../../../schema/dashboard";

export type DraftRefusal = { kind: "invalid"; path: string } | { kind: "missingReport"; reportId: number };

/** Report ids of the draft's charts, the ones inside tabs included. */
export function chartReportIds(widgets: readonly DashboardWidget[] | null | undefined): number[] {
  const ids: number[] = [];
  for (const w of widgets ?? []) {
    const config = (w.config ?? {}) as { reportId?: unknown; tabs?: unknown };
    if (w.type === "TABS_CONTAINER" && Array.isArray(config.tabs)) {
      for (const tab of config.tabs as { widgets?: DashboardWidget[] }[]) ids.push(...chartReportIds(tab?.widgets));
    } else if (w.type === "CHART" && typeof config.reportId === "number") ids.push(config.reportId);
  }
  return ids;
}

export interface KnownReports {
  /** The workbook's reports now. */
  known: ReadonlySet<number>;
  /** Reports the workbook had while the editor was open and has no more. */
  gone: ReadonlySet<number>;
  /** The last draft the server took. */
  accepted: DashboardConfig | null;
}

export function draftRefusal(config: DashboardConfig, { known, gone, accepted }: KnownReports): DraftRefusal | null {
  const parsed = DashboardConfig.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: "invalid", path: issue ? issue.path.join(".") : "" };
  }
  const taken = new Set(chartReportIds(accepted?.widgets));
  const missing = chartReportIds(config.widgets).find((id) => gone.has(id) || (!known.has(id) && !taken.has(id)));
  return missing === undefined ? null : { kind: "missingReport", reportId: missing };
}
