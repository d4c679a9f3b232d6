/**
 * What a click on a CHART widget's mark, cell or figure opens: the widget's own click behaviour
 * (a link to another dashboard, or an event for the host page) where the creator chose one and
 * the surface acts on it; otherwise the drilldown — the rows behind the clicked value, under the
 * same filters and row-level security (the detail query keeps the composed query's filters).
 */
import { useCallback } from "react";
import type { DashboardWidget, ReportSnapshot } from "../../../schema/dashboard";
import { clickBehaviourOf } from "../../../schema/dashboard-wiring";
import type { SemanticQuery } from "../../shell/platform-api";
import type { WidgetHost } from "../../grid/widget-host";
import { composeDetailQuery } from "../query/compose-query";

export type OpenDrill = (member: string, value: unknown, row: Record<string, unknown>) => void;

export function useChartDrill(input: {
  widget: DashboardWidget;
  host: WidgetHost;
  snapshot: ReportSnapshot | undefined;
  composed: SemanticQuery | null;
  title: string;
}): OpenDrill {
  const { widget, host, snapshot, composed, title } = input;
  return useCallback(
    (member, value, row) => {
      if (!composed) return;
      const click = clickBehaviourOf(widget.config);
      if (click.action !== "drill" && host.clicked) return host.clicked({ widgetId: widget.id, behaviour: click, member, value, row, query: composed });
      const drillMembers = (snapshot?.meta as { drillMembers?: unknown } | null)?.drillMembers;
      host.drilldown(
        {
          widgetId: widget.id,
          title,
          member,
          value,
          detailQuery: composeDetailQuery(composed, row, member, Array.isArray(drillMembers) ? (drillMembers as string[]) : undefined),
        },
        { member, value, widgetId: widget.id },
      );
    },
    [composed, host, widget.id, widget.config, title, snapshot],
  );
}
