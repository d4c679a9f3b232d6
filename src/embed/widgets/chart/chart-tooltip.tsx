/** A chart's tooltip: vega's tooltip value as a small table or a line of text, in the page's top layer. */
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";

/** A tooltip at a page position: a title/value table (vega's object tooltips) or a line of text. */
export interface TooltipState {
  x: number;
  y: number;
  rows: [string, string][] | null;
  text: string | null;
}

/** vega's tooltip value as table rows or text (objects list their fields; other values are text). */
export function tooltipOf(value: unknown, x: number, y: number): TooltipState | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "object" && !Array.isArray(value)) {
    const rows = Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, v === null || v === undefined ? "" : String(v)] as [string, string]);
    return rows.length ? { x, y, rows, text: null } : null;
  }
  return { x, y, rows: null, text: Array.isArray(value) ? value.join(", ") : String(value) };
}

/** The chart's tooltip, in the page's top layer (a grid cell's transform would misplace a fixed element inside it). */
export function ChartTooltip(props: { tooltip: TooltipState }) {
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const { x, y } = props.tooltip;
  useEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    if (!box) return;
    const left = x + 14 + box.width > window.innerWidth ? Math.max(4, x - 14 - box.width) : x + 14;
    const top = y + 14 + box.height > window.innerHeight ? Math.max(4, y - 14 - box.height) : y + 14;
    setPlace({ left, top });
  }, [x, y, props.tooltip]);
  return createPortal(
    <div
      ref={ref}
      className="svc-chart-tooltip"
      role="tooltip"
      data-testid="chart-tooltip"
      style={{ left: place?.left ?? x + 14, top: place?.top ?? y + 14, visibility: place ? "visible" : "hidden" }}
    >
      {props.tooltip.rows ? (
        <table>
          <tbody>
            {props.tooltip.rows.map(([key, value]) => (
              <tr key={key}>
                <td className="key">{key}</td>
                <td className="value">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        props.tooltip.text
      )}
    </div>,
    document.body,
  );
}
