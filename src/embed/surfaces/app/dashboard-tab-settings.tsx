/**
 * The inspector's tab settings: a tab container's tab titles and what each tab holds (each
 * widget movable back onto the dashboard), and for any other widget the tab it can be put in.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";
import { useAppText } from "./app-messages";
import type { TabPlace } from "./dashboard-tab-placement";
import { WIDGET_LABEL } from "./dashboard-widgets";

/** A tab container's titles (comma separated) and, per tab, its widgets with "Move to the dashboard". */
export function TabContainerSettings(props: {
  widget: DashboardWidget;
  reports: Report[];
  set: (patch: Record<string, unknown>, options?: { typing?: boolean }) => void;
  onMoveOut?: (widgetId: string) => void;
}) {
  const t = useAppText();
  const tabs = tabsOf(props.widget);
  const nameOf = (w: DashboardWidget) => {
    const reportId = (w.config as { reportId?: unknown } | null | undefined)?.reportId;
    return (w.type === "CHART" ? props.reports.find((r) => r.id === reportId)?.name : undefined) ?? t(WIDGET_LABEL[w.type]);
  };
  return (
    <>
      <label className="svc-app-field">
        <span>{t("dashTabTitles")}</span>
        <input
          className="svc-app-input"
          value={tabs.map((tab) => tab.title).join(", ")}
          onChange={(e) => {
            const titles = e.target.value.split(",").map((s) => s.trim());
            props.set(
              {
                tabs: titles.map((title, i) => ({ id: tabs[i]?.id ?? `tab-${i + 1}`, title: title || `Tab ${i + 1}`, widgets: tabs[i]?.widgets ?? [] })),
              },
              { typing: true },
            );
          }}
        />
      </label>
      {tabs.map((tab) => (
        <div key={tab.id} className="svc-app-field" data-testid={`tab-contents-${tab.id}`}>
          <span>{t("dashInTab", { tab: tab.title })}</span>
          {tab.widgets.length === 0 ? (
            <p className="svc-app-hint">{t("dashTabEmpty")}</p>
          ) : (
            <ul className="svc-app-tab-widgets">
              {tab.widgets.map((w) => (
                <li key={w.id}>
                  <span>{nameOf(w)}</span>
                  {props.onMoveOut ? (
                    <button type="button" className="svc-button is-small" onClick={() => props.onMoveOut!(w.id)} data-testid={`move-out-${w.id}`}>
                      {t("dashMoveOut")}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </>
  );
}

/** Where a widget is: on the dashboard, or put into one of the dashboard's tabs. */
export function TabPlacement(props: { places: TabPlace[]; onPlace: (place: TabPlace) => void }) {
  const t = useAppText();
  if (props.places.length === 0) return null;
  return (
    <label className="svc-app-field">
      <span>{t("dashPlaceIn")}</span>
      <select
        className="svc-app-input"
        value=""
        onChange={(e) => {
          const place = props.places.find((p) => `${p.containerId}/${p.tabId}` === e.target.value);
          if (place) props.onPlace(place);
        }}
        data-testid="place-in-tab"
      >
        <option value="">{t("dashPlaceDashboard")}</option>
        {props.places.map((p) => (
          <option key={`${p.containerId}/${p.tabId}`} value={`${p.containerId}/${p.tabId}`}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}
