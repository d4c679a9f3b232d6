/**
 * The dashboard draft on react-grid-layout: drag a widget by its title bar, resize it by its
 * corner; a move or resize is kept for the breakpoint it was made at.
 */
import { useCallback, useMemo, useState, type KeyboardEvent, type ReactNode, type Ref } from "react";
import { Responsive, useContainerWidth, type Layout, type ResizeHandleAxis } from "react-grid-layout";
import type { DashboardConfig, DashboardWidget } from "../../../schema/dashboard";
import { WidgetRenderer } from "../../grid/widget-renderer";
import { DashboardGrid } from "../../grid/dashboard-grid";
import { FilterWiringProvider } from "../../grid/filter-wiring-context";
import { buildGridLayouts, resolveGridConfig } from "../../grid/grid-layouts";
import { GripIcon } from "./app-icons";
import { WIDGET_LABEL } from "./dashboard-widgets";
import { keyboardStep } from "./dashboard-keyboard";
import { breakpointAt, withLayout } from "./dashboard-breakpoints";
import { useAppText } from "./app-messages";
import "../../grid/dashboard-grid.css";

export function EditableGrid(props: {
  widgets: DashboardWidget[];
  layout: DashboardConfig["layout"];
  editing: boolean;
  selected: string | null;
  onSelect(id: string | null): void;
  onLayout(widgets: DashboardWidget[]): void;
  /** The responsive preview's canvas width in px; the editor's own width without it. */
  frameWidth?: number;
  /** Drawn over each widget (the wiring mode's switches). */
  overlay?: (widget: DashboardWidget) => ReactNode;
}) {
  const t = useAppText();
  const resize = t("dashResize");
  const dragToResize = t("dashDragToResize");
  // react-grid-layout's corner handle, drawn so it is seen (app-surface.css) and named for assistive technology.
  const resizeHandle = useCallback(
    (axis: ResizeHandleAxis, ref: Ref<HTMLElement>) => (
      <span ref={ref} className={`react-resizable-handle react-resizable-handle-${axis} svc-app-resize`} role="img" aria-label={resize} title={dragToResize} />
    ),
    [resize, dragToResize],
  );
  const { width, containerRef, mounted } = useContainerWidth({ initialWidth: typeof window === "undefined" ? 1280 : window.innerWidth });
  const config = useMemo(() => resolveGridConfig(props.layout), [props.layout]);
  const layouts = useMemo(() => buildGridLayouts(props.widgets, config), [props.widgets, config]);
  // The breakpoint the canvas's width shows (a move or resize is kept for it).
  const bp = breakpointAt(config, width);
  const renderGrid = useCallback((ws: DashboardWidget[]) => <DashboardGrid widgets={ws} layout={props.layout} nested />, [props.layout]);
  const { widgets, onLayout } = props;
  const commit = useCallback(
    (layout: Layout) => {
      const next = withLayout(widgets, layout, bp);
      if (next) onLayout(next);
    },
    [widgets, onLayout, bp],
  );
  // Arrow keys on a widget's focused title bar move it a cell, Shift+arrows resize it; said aloud.
  const [said, say] = useState("");
  const onKey = (e: KeyboardEvent, w: DashboardWidget) => {
    const current = layouts[bp];
    const at = current.find((l) => l.i === w.id);
    // The phone layout (xxs) is computed from the others, one column: nothing to move there.
    const step = at && bp !== "xxs" ? keyboardStep(at, e.key, e.shiftKey, config.cols[bp]) : null;
    if (!step) return;
    e.preventDefault();
    commit(current.map((l) => (l.i === w.id ? { ...l, ...step.to } : l)));
    const widget = t(WIDGET_LABEL[w.type]);
    const { x, y, w: cw, h } = step.to;
    say(step.kind === "move" ? t("dashMoved", { widget, x: x + 1, y: y + 1 }) : t("dashResized", { widget, w: cw, h }));
  };
  return (
    // The draft's filter wiring holds in the editor and its preview as on the published dashboard.
    <FilterWiringProvider widgets={props.widgets}>
      <div
        className={props.editing ? "svc-grid is-editing" : "svc-grid"}
        ref={containerRef}
        style={props.frameWidth ? { width: props.frameWidth } : undefined}
        data-breakpoint={bp}
      >
        <div className="svc-visually-hidden" aria-live="polite" data-testid="grid-announcer">
          {said}
        </div>
        {mounted ? (
          <Responsive
            width={width}
            breakpoints={config.breakpoints}
            cols={config.cols}
            layouts={layouts}
            rowHeight={config.rowHeight}
            margin={config.margin}
            containerPadding={config.containerPadding}
            dragConfig={{ enabled: props.editing, handle: ".svc-app-drag" }}
            resizeConfig={{ enabled: props.editing, handles: ["se"], handleComponent: resizeHandle }}
            onDragStop={(layout) => commit(layout)}
            onResizeStop={(layout) => commit(layout)}
          >
            {props.widgets.map((w) => (
              <div
                key={w.id}
                className={props.selected === w.id ? "svc-grid-item svc-app-widget is-selected" : "svc-grid-item svc-app-widget"}
                data-testid={`widget-${w.id}`}
                data-widget-type={w.type}
              >
                {props.editing ? (
                  <div className="svc-app-widget-bar">
                    <span
                      className="svc-app-drag"
                      title={t("dashDragToMove")}
                      role="button"
                      tabIndex={0}
                      aria-label={`${t(WIDGET_LABEL[w.type])}: ${t("dashKeyboardHint")}`}
                      onKeyDown={(e) => onKey(e, w)}
                    >
                      <GripIcon size={12} /> {t(WIDGET_LABEL[w.type])}
                    </span>
                    <button
                      type="button"
                      className="svc-app-widget-edit"
                      onClick={() => props.onSelect(w.id)}
                      aria-label={t("dashConfigureWidget", { widget: t(WIDGET_LABEL[w.type]) })}
                    >
                      {t("dashConfigure")}
                    </button>
                  </div>
                ) : null}
                <div className="svc-app-widget-body">
                  <WidgetRenderer widget={w} renderGrid={renderGrid} />
                </div>
                {props.overlay?.(w)}
              </div>
            ))}
          </Responsive>
        ) : null}
      </div>
    </FilterWiringProvider>
  );
}
