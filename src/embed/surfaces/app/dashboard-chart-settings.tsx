/** A CHART widget's settings: its report, its title, and what a click on it does. */
import type { DashboardWidget } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { useAppText } from "./app-messages";
import { ClickPanel } from "./dashboard-click-panel";

export function ChartSettings(props: { widget: DashboardWidget; reports: Report[]; workbookId: number | null; set(patch: Record<string, unknown>): void }) {
  const t = useAppText();
  const { widget, set } = props;
  const cfg = (widget.config ?? {}) as Record<string, unknown>;
  const report = props.reports.find((r) => r.id === cfg.reportId);
  const dimensions = ((report?.query as { dimensions?: unknown } | null)?.dimensions ?? []) as string[];
  return (
    <>
      <label className="svc-app-field">
        <span>{t("dashReport")}</span>
        <select
          className="svc-app-input"
          value={String(cfg.reportId ?? "")}
          onChange={(e) => set({ reportId: Number(e.target.value) })}
          data-testid="chart-report"
        >
          {props.reports.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <label className="svc-app-field">
        <span>{t("dashTitle")}</span>
        <input
          className="svc-app-input"
          value={String(cfg.title ?? "")}
          placeholder={t("dashReportTitle")}
          onChange={(e) => set({ title: e.target.value || undefined })}
        />
      </label>
      <ClickPanel key={widget.id} widget={widget} workbookId={props.workbookId} dimensions={Array.isArray(dimensions) ? dimensions : []} set={set} />
    </>
  );
}
