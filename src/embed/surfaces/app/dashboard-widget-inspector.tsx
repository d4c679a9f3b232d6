/** The settings of the selected dashboard widget: its report and click, text, filter member and wiring, tabs and the tab it is in, and removing it. */
import { useEffect } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { ChartSettings } from "./dashboard-chart-settings";
import { FilterSettings } from "./dashboard-filter-settings";
import { WIDGET_LABEL } from "./dashboard-widgets";
import { useAppText } from "./app-messages";
import type { TabPlace } from "./dashboard-tab-placement";
import { TabContainerSettings, TabPlacement } from "./dashboard-tab-settings";

export function WidgetInspector(props: {
  widget: DashboardWidget;
  reports: Report[];
  /** `typing`: the change was typed into a field (one undo step until the focus leaves it). */
  onChange(fn: (w: DashboardWidget) => DashboardWidget, options?: { typing?: boolean }): void;
  onRemove(): void;
  onClose(): void;
  /** The workbook (a click's link never opens its own dashboard). */
  workbookId?: number | null;
  /** Opens the wiring mode of a FILTER widget. */
  onWire?(): void;
  /** The tabs this widget can be put in, and putting it there. */
  places?: TabPlace[];
  onPlace?(place: TabPlace): void;
  /** Moves a widget out of this tab container onto the dashboard. */
  onMoveOut?(widgetId: string): void;
}) {
  const t = useAppText();
  const w = props.widget;
  const cfg = (w.config ?? {}) as Record<string, unknown>;
  const set = (patch: Record<string, unknown>, options?: { typing?: boolean }) =>
    props.onChange((x) => ({ ...x, config: { ...(x.config ?? {}), ...patch } }), options);
  const typed = (patch: Record<string, unknown>) => set(patch, { typing: true });
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <aside className="svc-app-inspector" aria-label={t("dashWidgetSettings")} data-testid="widget-inspector">
      <div className="svc-app-inspector-head">
        <h3>{t(WIDGET_LABEL[w.type])}</h3>
        <button type="button" className="svc-icon-button" aria-label={t("dashClose")} onClick={props.onClose}>
          ×
        </button>
      </div>
      {w.type === "CHART" ? <ChartSettings widget={w} reports={props.reports} workbookId={props.workbookId ?? null} set={set} /> : null}
      {w.type === "TEXT" ? (
        <label className="svc-app-field">
          <span>{t("dashMarkdown")}</span>
          <textarea
            className="svc-app-input"
            rows={8}
            value={String(cfg.markdown ?? "")}
            onChange={(e) => typed({ markdown: e.target.value })}
            data-testid="text-markdown"
          />
        </label>
      ) : null}
      {w.type === "FILTER" || w.type === "TIME_GRAIN" ? <FilterSettings widget={w} set={set} onWire={props.onWire} /> : null}
      {w.type === "AI" ? (
        <label className="svc-app-field">
          <span>{t("dashSuggestedQuestion")}</span>
          <input className="svc-app-input" value={String(cfg.question ?? "")} onChange={(e) => typed({ question: e.target.value })} />
        </label>
      ) : null}
      {w.type === "TABS_CONTAINER" ? (
        <TabContainerSettings widget={w} reports={props.reports} set={set} {...(props.onMoveOut ? { onMoveOut: props.onMoveOut } : {})} />
      ) : props.onPlace ? (
        <TabPlacement places={props.places ?? []} onPlace={props.onPlace} />
      ) : null}
      <button type="button" className="svc-button is-danger is-small" onClick={props.onRemove} data-testid="remove-widget">
        {t("dashRemoveWidget")}
      </button>
    </aside>
  );
}
