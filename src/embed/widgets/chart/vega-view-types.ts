/** What a chart view takes, and the handle the PNG and PDF exports draw with (vega-view.tsx and its drawing). */
import type { VegaLiteSpec } from "./vega-spec";

export interface ChartHandle {
  toPngUrl(): Promise<string>;
  /** The drawing as SVG markup (the dashboard PDF draws it as vector graphics). */
  toSvg(): Promise<string>;
}

export interface VegaViewProps {
  spec: VegaLiteSpec;
  /** Text alternative of the chart. */
  description: string;
  onDatumClick?: (datum: Record<string, unknown>) => void;
  /** Called after each completed render, and with an error when rendering failed. */
  onRendered?: (error?: Error) => void;
  /** Called when the chart is off screen at load: it draws later, when scrolled to. */
  onDeferred?: () => void;
  /** Receives the handle used by the PNG export. */
  handleRef?: { current: ChartHandle | null };
}
