/** The dashboard grid: react-grid-layout Responsive, static for viewers, one column on phones. */
import { useCallback, useMemo, type ReactNode } from "react";
import { Responsive, useContainerWidth } from "react-grid-layout";
import type { DashboardLayout, DashboardWidget } from "../../schema/dashboard";
import { WidgetRenderer } from "./widget-renderer";
import { buildGridLayouts, resolveGridConfig } from "./grid-layouts";
import "./dashboard-grid.css";

export interface DashboardGridProps {
  widgets: DashboardWidget[];
  layout: DashboardLayout | null | undefined;
  /** A tab's grid inside a tabs card: no outer padding, the card has its own. */
  nested?: boolean;
}

export function DashboardGrid(props: DashboardGridProps): ReactNode {
  const { width, containerRef, mounted } = useContainerWidth({ initialWidth: typeof window === "undefined" ? 1280 : window.innerWidth });
  const nested = props.nested === true;
  const config = useMemo(() => {
    const resolved = resolveGridConfig(props.layout);
    return nested ? { ...resolved, containerPadding: [0, 0] as [number, number] } : resolved;
  }, [props.layout, nested]);
  const layouts = useMemo(() => buildGridLayouts(props.widgets, config), [props.widgets, config]);
  const renderGrid = useCallback((widgets: DashboardWidget[]) => <DashboardGrid widgets={widgets} layout={props.layout} nested />, [props.layout]);
  // The same children array while the widgets stay the same: react-grid-layout deep-compares
  // its children on every render, and a fresh array of elements makes that walk React's own
  // object graph (tens of ms per render on a large dashboard).
  const children = useMemo(
    () =>
      props.widgets.map((widget) => (
        <div key={widget.id} className="svc-grid-item">
          <WidgetRenderer widget={widget} renderGrid={renderGrid} />
        </div>
      )),
    [props.widgets, renderGrid],
  );

  return (
    <div className={nested ? "svc-grid is-nested" : "svc-grid"} ref={containerRef}>
      {mounted ? (
        <Responsive
          width={width}
          breakpoints={config.breakpoints}
          cols={config.cols}
          layouts={layouts}
          rowHeight={config.rowHeight}
          margin={config.margin}
          containerPadding={config.containerPadding}
          dragConfig={{ enabled: false }}
          resizeConfig={{ enabled: false }}
        >
          {children}
        </Responsive>
      ) : null}
    </div>
  );
}
