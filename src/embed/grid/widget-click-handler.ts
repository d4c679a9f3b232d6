/**
 * The dashboard surface's answer to a widget click that is not a drilldown: a link opens the
 * linked dashboard in this frame with the clicked value as its filter (its other filters
 * cleared); a host event goes to the host page as `svc:event:widget-click`.
 */
import { EVENT_TYPES } from "../../protocol";
import type { EmbedServices } from "../shell/embed-context";
import { linkedDashboardPath, linkedValue, linkFilter, widgetClickPayload, type WidgetClick } from "../widgets/chart/widget-click";

export function createWidgetClickHandler(services: Pick<EmbedServices, "bridge" | "store">): (click: WidgetClick) => void {
  const { bridge, store } = services;
  return (click) => {
    const { behaviour } = click;
    if (behaviour.action === "event") {
      bridge.emit(EVENT_TYPES.widgetClick, widgetClickPayload({ ...click, behaviour }));
      return;
    }
    const value = linkedValue(behaviour, click.row, click.query);
    // The linked dashboard keeps the filters it has a control for (dashboard-setup.ts).
    store.getState().replaceFilters(value === null ? {} : { [behaviour.filterMember]: linkFilter(behaviour, value) });
    store.getState().navigate(linkedDashboardPath(behaviour));
  };
}
