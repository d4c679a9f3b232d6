/**
 * The responsive preview's bar over the dashboard canvas: a switch between the editor's own width
 * and the desktop, laptop and tablet breakpoints' widths, and, at a breakpoint below desktop,
 * whether its layout is its own (edited there, or dropped to go back to the derived one) or
 * derived from the desktop one (shown read-only, with a way to make it its own).
 */
import type { BreakpointKey, DashboardConfig, DashboardWidget } from "../../../schema/dashboard";
import type { ResolvedGridConfig } from "../../grid/grid-layouts";
import { useAppText, type AppMessageKey } from "./app-messages";
import { PREVIEW_SIZES, adoptDerivedLayout, dropOwnLayout, hasOwnLayout, previewWidth, type PreviewSize } from "./dashboard-breakpoints";
import "./dashboard-canvas.css";

const SIZE_LABEL: Record<PreviewSize, AppMessageKey> = { auto: "bpAuto", lg: "bpLg", md: "bpMd", sm: "bpSm" };

export function CanvasSizeBar(props: {
  size: PreviewSize;
  onSize(size: PreviewSize): void;
  grid: ResolvedGridConfig;
  widgets: DashboardWidget[];
  /** Editing (not previewing, not wiring): the notice and its button show. */
  editing: boolean;
  onWidgets(fn: (widgets: DashboardWidget[]) => DashboardWidget[]): void;
}) {
  const t = useAppText();
  const { size } = props;
  return (
    <div className="svc-app-canvas-size" data-testid="canvas-size">
      <div className="svc-app-size-switch" role="group" aria-label={t("bpSwitch")}>
        {PREVIEW_SIZES.map((s) => (
          <button
            key={s}
            type="button"
            className="svc-app-size-option"
            aria-pressed={size === s}
            title={s === "auto" ? undefined : t("bpWidth", { size: t(SIZE_LABEL[s]), width: props.grid.breakpoints[s] })}
            onClick={() => props.onSize(s)}
            data-testid={`canvas-size-${s}`}
          >
            {t(SIZE_LABEL[s])}
          </button>
        ))}
      </div>
      {props.editing && size !== "auto" && size !== "lg" ? <LayoutNotice bp={size} label={t(SIZE_LABEL[size])} {...props} /> : null}
    </div>
  );
}

function LayoutNotice(props: {
  bp: BreakpointKey;
  label: string;
  grid: ResolvedGridConfig;
  widgets: DashboardWidget[];
  onWidgets: (fn: (ws: DashboardWidget[]) => DashboardWidget[]) => void;
}) {
  const t = useAppText();
  const { bp, grid } = props;
  const own = hasOwnLayout(props.widgets, bp);
  return (
    <p className="svc-app-size-notice" data-testid="layout-notice" data-own={own}>
      <span>{t(own ? "bpOwn" : "bpDerived", { size: props.label })}</span>
      <button
        type="button"
        className={own ? "svc-button is-small" : "svc-button is-small is-primary"}
        onClick={() => props.onWidgets((ws) => (own ? dropOwnLayout(ws, bp) : adoptDerivedLayout(ws, grid, bp)))}
        data-testid={own ? "layout-use-derived" : "layout-make-own"}
      >
        {t(own ? "bpUseDerived" : "bpMakeEditable", { size: props.label })}
      </button>
    </p>
  );
}

/** The canvas width and whether it may be edited at the preview size picked. */
export function canvasFrame(size: PreviewSize, grid: ResolvedGridConfig, config: DashboardConfig): { width?: number; editable: boolean } {
  if (size === "auto") return { editable: true };
  return { width: previewWidth(grid, size), editable: hasOwnLayout(config.widgets ?? [], size) };
}
