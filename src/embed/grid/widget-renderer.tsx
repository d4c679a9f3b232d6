/** Picks the component of a widget type. */
import type { ReactNode } from "react";
import type { DashboardWidget } from "../../schema/dashboard";
import { AiWidget } from "../widgets/ai/ai-widget";
import { ReportWidget } from "../widgets/chart/python-widget";
import { FilterWidget } from "../widgets/filter/filter-widget";
import { TabsWidget } from "../widgets/tabs-container/tabs-widget";
import { TextWidget } from "../widgets/text/text-widget";
import { TimeGrainWidget } from "../widgets/time-grain/time-grain-widget";

export function WidgetRenderer(props: { widget: DashboardWidget; renderGrid: (widgets: DashboardWidget[]) => ReactNode }) {
  const { widget } = props;
  switch (widget.type) {
    case "CHART":
      return <ReportWidget widget={widget} />;
    case "TEXT":
      return <TextWidget widget={widget} />;
    case "FILTER":
      return <FilterWidget widget={widget} />;
    case "TIME_GRAIN":
      return <TimeGrainWidget widget={widget} />;
    case "TABS_CONTAINER":
      return <TabsWidget widget={widget} renderGrid={props.renderGrid} />;
    case "AI":
      return <AiWidget widget={widget} />;
  }
}
