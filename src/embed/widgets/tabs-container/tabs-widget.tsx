/**
 * TABS_CONTAINER widget: one card with the tabs in its header (WAI-ARIA tab pattern, arrow
 * keys move between tabs), each tab with its own grid of child widgets, drawn without card
 * chrome of their own inside it. A tab mounts when first shown and stays mounted after.
 */
import { useState, type KeyboardEvent, type ReactNode } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetFrame } from "../../grid/widget-frame";
import { tabsOf } from "./tabs-config";
import "./tabs-widget.css";

export interface TabsWidgetProps {
  widget: DashboardWidget;
  /** Renders a tab's child widgets in a grid (the dashboard's grid, nested). */
  renderGrid: (widgets: DashboardWidget[]) => ReactNode;
}

export function TabsWidget(props: TabsWidgetProps) {
  const locale = useEmbedStore((s) => s.locale);
  const tabs = tabsOf(props.widget);
  const [active, setActive] = useState(0);
  const [visited, setVisited] = useState<ReadonlySet<number>>(() => new Set([0]));
  const id = props.widget.id;
  const title = (props.widget.config as { title?: unknown } | null)?.title;

  const select = (index: number) => {
    setActive(index);
    setVisited((v) => (v.has(index) ? v : new Set([...v, index])));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (event.key === "Home" || event.key === "End" || delta) {
      event.preventDefault();
      const next = event.key === "Home" ? 0 : event.key === "End" ? tabs.length - 1 : (active + delta + tabs.length) % tabs.length;
      select(next);
      document.getElementById(`tab-${id}-${next}`)?.focus();
    }
  };

  return (
    <WidgetFrame widget={props.widget} title={typeof title === "string" ? title : null} state="ready">
      <div className="svc-tabs">
        <div className="svc-tablist" role="tablist" aria-label={typeof title === "string" ? title : t(locale, "tabs.label")} onKeyDown={onKeyDown}>
          {tabs.map((tab, index) => (
            <button
              key={tab.id}
              id={`tab-${id}-${index}`}
              type="button"
              role="tab"
              aria-selected={active === index}
              aria-controls={`tabpanel-${id}-${index}`}
              tabIndex={active === index ? 0 : -1}
              className={active === index ? "is-active" : ""}
              onClick={() => select(index)}
              data-testid={`tab-${id}-${tab.id}`}
            >
              {tab.title}
            </button>
          ))}
        </div>
        {tabs.map((tab, index) => (
          <div key={tab.id} id={`tabpanel-${id}-${index}`} role="tabpanel" aria-labelledby={`tab-${id}-${index}`} hidden={active !== index} className="svc-tabpanel">
            {visited.has(index) ? props.renderGrid(tab.widgets) : null}
          </div>
        ))}
      </div>
    </WidgetFrame>
  );
}
