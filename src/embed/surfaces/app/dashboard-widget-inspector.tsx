/** The settings of the selected dashboard widget: its report, text, filter member, tabs, and removing it. */
import { useEffect, useState } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { useApp } from "./app-context";
import { WIDGET_LABEL } from "./dashboard-widgets";
import { useAppText } from "./app-messages";

export function WidgetInspector(props: {
  widget: DashboardWidget;
  reports: Report[];
  onChange(fn: (w: DashboardWidget) => DashboardWidget): void;
  onRemove(): void;
  onClose(): void;
}) {
  const { api } = useApp();
  const t = useAppText();
  const w = props.widget;
  const cfg = (w.config ?? {}) as Record<string, unknown>;
  const set = (patch: Record<string, unknown>) => props.onChange((x) => ({ ...x, config: { ...(x.config ?? {}), ...patch } }));
  const [members, setMembers] = useState<{ name: string; title: string; type: string }[]>([]);
  useEffect(() => {
    if (w.type !== "FILTER" && w.type !== "TIME_GRAIN") return;
    let cancelled = false;
    api.meta().then(
      (m) =>
        !cancelled &&
        setMembers(m.sources.flatMap((s) => s.dimensions.map((d) => ({ name: d.name, title: `${s.title}: ${d.shortTitle || d.title}`, type: d.type })))),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [api, w.type]);
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
      {w.type === "CHART" ? (
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
        </>
      ) : null}
      {w.type === "TEXT" ? (
        <label className="svc-app-field">
          <span>{t("dashMarkdown")}</span>
          <textarea
            className="svc-app-input"
            rows={8}
            value={String(cfg.markdown ?? "")}
            onChange={(e) => set({ markdown: e.target.value })}
            data-testid="text-markdown"
          />
        </label>
      ) : null}
      {w.type === "FILTER" || w.type === "TIME_GRAIN" ? (
        <label className="svc-app-field">
          <span>{t(w.type === "FILTER" ? "dashFilterOn" : "dashTimeDimension")}</span>
          <select
            className="svc-app-input"
            value={String((w.type === "FILTER" ? cfg.member : cfg.dimension) ?? "")}
            onChange={(e) =>
              set(
                w.type === "FILTER"
                  ? { member: e.target.value, control: members.find((m) => m.name === e.target.value)?.type === "time" ? "dateRange" : "values" }
                  : { dimension: e.target.value },
              )
            }
          >
            <option value="">{t("dashChoose")}</option>
            {members
              .filter((m) => (w.type === "TIME_GRAIN" ? m.type === "time" : true))
              .map((m) => (
                <option key={m.name} value={m.name}>
                  {m.title}
                </option>
              ))}
          </select>
        </label>
      ) : null}
      {w.type === "FILTER" ? (
        <label className="svc-app-field">
          <span>{t("dashLabel")}</span>
          <input className="svc-app-input" value={String(cfg.label ?? "")} onChange={(e) => set({ label: e.target.value || null })} />
        </label>
      ) : null}
      {w.type === "AI" ? (
        <label className="svc-app-field">
          <span>{t("dashSuggestedQuestion")}</span>
          <input className="svc-app-input" value={String(cfg.question ?? "")} onChange={(e) => set({ question: e.target.value })} />
        </label>
      ) : null}
      {w.type === "TABS_CONTAINER" ? (
        <label className="svc-app-field">
          <span>{t("dashTabTitles")}</span>
          <input
            className="svc-app-input"
            value={((cfg.tabs as { title: string }[] | undefined) ?? []).map((t) => t.title).join(", ")}
            onChange={(e) => {
              const titles = e.target.value.split(",").map((s) => s.trim());
              const old = (cfg.tabs as { id: string; title: string; widgets: DashboardWidget[] }[] | undefined) ?? [];
              set({ tabs: titles.map((title, i) => ({ id: old[i]?.id ?? `tab-${i + 1}`, title: title || `Tab ${i + 1}`, widgets: old[i]?.widgets ?? [] })) });
            }}
          />
        </label>
      ) : null}
      <button type="button" className="svc-button is-danger is-small" onClick={props.onRemove} data-testid="remove-widget">
        {t("dashRemoveWidget")}
      </button>
    </aside>
  );
}
